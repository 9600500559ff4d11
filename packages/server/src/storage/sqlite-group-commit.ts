import type { CreateOptions, CreateResult, NewPet } from './records.ts';
import type { SqliteDatabase } from './sqlite-database.ts';

interface PendingCreate {
  pet: NewPet;
  options: CreateOptions | undefined;
  resolve: (result: CreateResult) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: CreateResult } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Runs one create inside the open transaction; must not commit. */
  create: (pet: NewPet, options: CreateOptions | undefined) => CreateResult;
  /** Flush at once when this many creates are queued. */
  maxBatch?: number;
}

/**
 * Creates that arrive close together share one transaction and therefore one fsync. Each create runs
 * in its own savepoint, so one that fails or meets an idempotency conflict is undone alone; promises
 * settle only after COMMIT, and if the commit fails every create of the batch rejects.
 */
export class GroupCommit {
  readonly #db: SqliteDatabase;
  readonly #create: GroupCommitOptions['create'];
  readonly #maxBatch: number;
  #queue: PendingCreate[] = [];
  #timer: NodeJS.Immediate | undefined;

  constructor(db: SqliteDatabase, options: GroupCommitOptions) {
    this.#db = db;
    this.#create = options.create;
    this.#maxBatch = options.maxBatch ?? 256;
  }

  submit(pet: NewPet, options: CreateOptions | undefined): Promise<CreateResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ pet, options, resolve, reject });
      if (this.#queue.length >= this.#maxBatch) this.flush();
      else if (this.#timer === undefined) {
        this.#timer = setImmediate(() => {
          this.#timer = undefined;
          this.flush();
        });
      }
    });
  }

  /** Commits everything queued so far, synchronously. */
  flush(): void {
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      this.#rejectAll(batch, error);
      return;
    }
    try {
      outcomes = batch.map((item) => this.#createOne(item));
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.rollback();
      this.#rejectAll(batch, error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.result);
      else item.reject(outcome.error);
    });
  }

  #createOne(item: PendingCreate): Outcome {
    this.#db.exec('SAVEPOINT pet_create');
    let outcome: Outcome;
    try {
      outcome = { ok: true, result: this.#create(item.pet, item.options) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // A conflict leaves no pet behind; a statement error may have left a partial one.
    if (!outcome.ok || outcome.result.kind !== 'created') this.#db.exec('ROLLBACK TO pet_create');
    this.#db.exec('RELEASE pet_create');
    return outcome;
  }

  #rejectAll(batch: PendingCreate[], error: unknown): void {
    for (const item of batch) item.reject(error);
  }
}
