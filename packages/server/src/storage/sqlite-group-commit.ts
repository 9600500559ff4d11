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
  /**
   * Runs one create inside the open transaction; must not commit. Without an idempotency key it must
   * be a single statement (it runs without a savepoint of its own).
   */
  create: (pet: NewPet, options: CreateOptions | undefined) => CreateResult;
  /** Flush at once when this many creates are queued. */
  maxBatch?: number;
}

/**
 * Creates that arrive close together share one transaction and therefore one fsync. A create that fails
 * or meets an idempotency conflict is undone alone (#createOne); promises settle only after COMMIT, and
 * if the commit fails every create of the batch rejects.
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

  /**
   * A create without an idempotency key is one INSERT, which SQLite undoes by itself when it fails; one
   * with a key runs several statements, in a savepoint so that a failure or a conflict is undone alone.
   */
  #createOne(item: PendingCreate): Outcome {
    if (item.options?.idempotency === undefined) return this.#attempt(item);
    this.#db.exec('SAVEPOINT pet_create');
    const outcome = this.#attempt(item);
    if (!outcome.ok || outcome.result.kind !== 'created') this.#db.exec('ROLLBACK TO pet_create');
    this.#db.exec('RELEASE pet_create');
    return outcome;
  }

  /**
   * One create. An error that ended the transaction (SQLite rolls it back itself on some I/O, full-disk
   * and memory errors) fails the whole batch: the creates before it are gone, and the ones after would
   * otherwise run outside any transaction.
   */
  #attempt(item: PendingCreate): Outcome {
    try {
      return { ok: true, result: this.#create(item.pet, item.options) };
    } catch (error) {
      if (!this.#db.inTransaction) throw error;
      return { ok: false, error };
    }
  }

  #rejectAll(batch: PendingCreate[], error: unknown): void {
    for (const item of batch) item.reject(error);
  }
}
