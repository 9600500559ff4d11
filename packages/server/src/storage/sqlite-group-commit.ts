import type { CreateOptions, CreateResult, NewPet } from './records.ts';
import type { SqliteConnection } from './sqlite-connection.ts';
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
  create: (db: SqliteDatabase, pet: NewPet, options: CreateOptions | undefined) => CreateResult;
  /** Flush at once when this many creates are queued. */
  maxBatch?: number;
}

/**
 * Creates that arrive close together share one transaction and therefore one fsync. A create that fails
 * or meets an idempotency conflict is undone alone (#createOne); promises settle only after COMMIT, and
 * if the commit fails every create of the batch rejects. A batch is one turn on the connection: it
 * commits at once when the connection is free, else as soon as the transaction holding it ends; a
 * batch refused a place in line (the connection's bound) rejects every create of it as unavailable.
 */
export class GroupCommit {
  readonly #connection: Pick<SqliteConnection, 'turn'>;
  readonly #create: GroupCommitOptions['create'];
  readonly #maxBatch: number;
  #queue: PendingCreate[] = [];
  #timer: NodeJS.Immediate | undefined;

  constructor(connection: Pick<SqliteConnection, 'turn'>, options: GroupCommitOptions) {
    this.#connection = connection;
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

  /** Commits everything queued so far: synchronously when the connection is free, else in its turn. */
  flush(): void {
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    this.#connection
      .turn((db) => this.#commit(db, batch))
      .catch((error: unknown) => this.#rejectAll(batch, error));
  }

  #commit(db: SqliteDatabase, batch: PendingCreate[]): void {
    let outcomes: Outcome[];
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      this.#rejectAll(batch, error);
      return;
    }
    try {
      outcomes = batch.map((item) => this.#createOne(db, item));
      db.exec('COMMIT');
    } catch (error) {
      db.rollback();
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
  #createOne(db: SqliteDatabase, item: PendingCreate): Outcome {
    if (item.options?.idempotency === undefined) return this.#attempt(db, item);
    db.exec('SAVEPOINT pet_create');
    const outcome = this.#attempt(db, item);
    if (!outcome.ok || outcome.result.kind !== 'created') db.exec('ROLLBACK TO pet_create');
    db.exec('RELEASE pet_create');
    return outcome;
  }

  /**
   * One create. An error that ended the transaction (SQLite rolls it back itself on some I/O, full-disk
   * and memory errors) fails the whole batch: the creates before it are gone, and the ones after would
   * otherwise run outside any transaction.
   */
  #attempt(db: SqliteDatabase, item: PendingCreate): Outcome {
    try {
      return { ok: true, result: this.#create(db, item.pet, item.options) };
    } catch (error) {
      if (!db.inTransaction) throw error;
      return { ok: false, error };
    }
  }

  #rejectAll(batch: PendingCreate[], error: unknown): void {
    for (const item of batch) item.reject(error);
  }
}
