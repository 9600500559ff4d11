import { deleteWhere } from '../storage/limited-delete.ts';
import type { Row } from '../storage/rows.ts';
import type { SqlExecutor } from '../storage/sql-executor.ts';

/**
 * Rows delivered or given up are kept this long (an invitation's page shows its mail's delivery for
 * the invitation's 7 days), then purged by the maintenance.
 */
export const OUTBOX_KEEP_MS = 14 * 24 * 60 * 60_000;

/** Where an outbox row is: waiting (first time or again), handed over, or given up. */
export type DeliveryState = 'queued' | 'sent' | 'failed';

/** Something to deliver (migration 170): `kind` says how (`mail`), `topic` what (`invitation`). */
export interface NewOutboxRow {
  /** Unique; a mail's Message-ID is made of it, so a repeated delivery is the same message. */
  id: string;
  kind: string;
  topic: string;
  /** What it is about, for whoever caused it to look up (an invitation's id); null for nothing. */
  subjectRef: string | null;
  payload: unknown;
  createdAt: number;
}

/** A row claimed for delivery: held by its claimer until `leaseUntil`. */
export interface ClaimedRow {
  id: string;
  kind: string;
  topic: string;
  subjectRef: string | null;
  payload: unknown;
  /** This attempt's number: 1 for the first. */
  attempts: number;
  createdAt: number;
}

/** The latest delivery about a subject, as its page shows it. */
export interface Delivery {
  id: string;
  state: DeliveryState;
  attempts: number;
}

export interface OutboxStats {
  /** Rows queued (waiting for their first attempt or another). */
  queued: number;
  /** When the oldest queued row was written; null when none is. */
  oldestQueuedAt: number | null;
}

/** A full outbox: the change that would queue one more row is refused, not the outbox grown. */
export class OutboxFullError extends Error {
  override readonly name = 'OutboxFullError';
  readonly cap: number;
  constructor(cap: number) {
    super(`the outbox holds ${cap} deliveries waiting: no more are taken until some are handed over`);
    this.cap = cap;
  }
}

/**
 * Which of a subject's rows is its delivery, first: one queued or sent outranks one given up (a
 * resend follows a mail given up), then the newest.
 */
export const DELIVERY_ORDER = `CASE o.state WHEN 'queued' THEN 0 WHEN 'sent' THEN 1 ELSE 2 END, o.created_at DESC, o.id DESC`;

const CLAIMED = 'id, kind, topic, subject_ref, payload, attempts, created_at';

/** A JSONB column arrives parsed (PostgreSQL); a TEXT one as its JSON (SQLite). */
const parsed = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

const toClaimed = (row: Row): ClaimedRow => ({
  id: row.id as string,
  kind: row.kind as string,
  topic: row.topic as string,
  subjectRef: (row.subject_ref as string | null) ?? null,
  payload: parsed(row.payload),
  attempts: Number(row.attempts),
  createdAt: Number(row.created_at),
});

/**
 * The outbox table, on the executor it is given: a transaction's, to queue a row with the change that
 * causes it, or the storage's, to deliver. Every change of a claimed row names its claimer and is made
 * only while that claimer holds it, so two instances never both record an attempt of one row.
 */
export function createOutboxRecords(sql: SqlExecutor, dialect: 'sqlite' | 'postgres') {
  // PostgreSQL: concurrent claimers pass over each other's rows instead of waiting for them.
  const skipLocked = dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  const held = 'id = $1 AND lease_owner = $2 AND state = $3';
  return {
    /**
     * Queues a row, due at once; refused with OutboxFullError while `cap` rows are queued already (in
     * the caller's transaction, so the change that would have caused it is undone with it).
     */
    async add(row: NewOutboxRow, cap: number): Promise<void> {
      const [count] = await sql.all(
        `SELECT count(*) AS n FROM (SELECT 1 FROM outbox WHERE state = 'queued' LIMIT $1) AS queued`,
        [cap],
      );
      if (Number(count!.n) >= cap) throw new OutboxFullError(cap);
      await sql.run(
        `INSERT INTO outbox (id, kind, topic, subject_ref, payload, state, attempts, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, 'queued', 0, $6, $6)`,
        [row.id, row.kind, row.topic, row.subjectRef, JSON.stringify(row.payload), row.createdAt],
      );
    },

    /**
     * Claims up to `limit` rows of `kind` that are due at `now` and held by nobody (or whose holder's
     * lease ran out: it stopped mid-delivery), for `owner` until `leaseUntil`; counts the attempt.
     */
    async claim(kind: string, owner: string, now: number, leaseUntil: number, limit: number) {
      const rows = await sql.all(
        `UPDATE outbox SET lease_owner = $2, lease_until = $3, attempts = attempts + 1
         WHERE id IN (SELECT id FROM outbox WHERE state = 'queued' AND kind = $1 AND next_attempt_at <= $4
           AND (lease_until IS NULL OR lease_until <= $4) ORDER BY next_attempt_at, id LIMIT $5 ${skipLocked})
         AND state = 'queued' AND (lease_until IS NULL OR lease_until <= $4)
         RETURNING ${CLAIMED}`,
        [kind, owner, leaseUntil, now, Math.trunc(limit)],
      );
      return rows.map(toClaimed).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },

    /** Delivered: kept as `summary` (nothing secret); false when `owner` no longer held it. */
    async sent(id: string, owner: string, now: number, summary: unknown): Promise<boolean> {
      const changed = await sql.run(
        `UPDATE outbox SET state = 'sent', sent_at = $4, payload = $5, lease_owner = NULL, lease_until = NULL,
         last_error = NULL WHERE ${held}`,
        [id, owner, 'queued', now, JSON.stringify(summary)],
      );
      return changed > 0;
    },

    /** Not delivered this time: due again at `nextAt`, free for any instance then. */
    async retryAt(id: string, owner: string, nextAt: number, error: string): Promise<boolean> {
      const changed = await sql.run(
        `UPDATE outbox SET next_attempt_at = $4, last_error = $5, lease_owner = NULL, lease_until = NULL
         WHERE ${held}`,
        [id, owner, 'queued', nextAt, error],
      );
      return changed > 0;
    },

    /** Given up: kept as `summary`, with the last error, for whoever caused it to see. */
    async failed(id: string, owner: string, error: string, summary: unknown): Promise<boolean> {
      const changed = await sql.run(
        `UPDATE outbox SET state = 'failed', last_error = $4, payload = $5, lease_owner = NULL, lease_until = NULL
         WHERE ${held}`,
        [id, owner, 'queued', error, JSON.stringify(summary)],
      );
      return changed > 0;
    },

    /** Holds every row `owner` has claimed (and not yet recorded) until `leaseUntil`: it is still at work. */
    extendClaims(owner: string, leaseUntil: number): Promise<number> {
      return sql.run(`UPDATE outbox SET lease_until = $2 WHERE lease_owner = $1 AND state = 'queued'`, [
        owner,
        leaseUntil,
      ]);
    },

    /** Lets rows claimed by `owner` go at once (it is stopping before their attempt began). */
    async release(owner: string, ids: readonly string[]): Promise<void> {
      for (const id of ids) {
        await sql.run(
          `UPDATE outbox SET lease_owner = NULL, lease_until = NULL, attempts = attempts - 1 WHERE ${held}`,
          [id, owner, 'queued'],
        );
      }
    },

    /** The delivery about each of `subjects`: its latest row (DELIVERY_ORDER; a resend makes a newer one). */
    async latestFor(subjects: readonly string[]): Promise<Map<string, Delivery>> {
      const latest = new Map<string, Delivery>();
      if (subjects.length === 0) return latest;
      const marks = subjects.map((_, index) => `$${index + 1}`).join(', ');
      const rows = await sql.all(
        `SELECT o.id, o.subject_ref, o.state, o.attempts FROM outbox o WHERE o.subject_ref IN (${marks})
         ORDER BY ${DELIVERY_ORDER}`,
        subjects,
      );
      for (const row of rows) {
        if (latest.has(row.subject_ref as string)) continue;
        latest.set(row.subject_ref as string, {
          id: row.id as string,
          state: row.state as DeliveryState,
          attempts: Number(row.attempts),
        });
      }
      return latest;
    },

    /** How many rows are queued, and since when the oldest waits. */
    async stats(): Promise<OutboxStats> {
      const [row] = await sql.all(
        `SELECT count(*) AS n, min(created_at) AS oldest FROM outbox WHERE state = 'queued'`,
      );
      const oldest = row?.oldest;
      return {
        queued: Number(row?.n ?? 0),
        oldestQueuedAt: oldest === null || oldest === undefined ? null : Number(oldest),
      };
    },

    /** The earliest time a queued row of `kind` is due (its lease's end when held); null when none. */
    async nextDue(kind: string): Promise<number | null> {
      const [row] = await sql.all(
        `SELECT min(CASE WHEN lease_until IS NOT NULL AND lease_until > next_attempt_at
           THEN lease_until ELSE next_attempt_at END) AS due
         FROM outbox WHERE state = 'queued' AND kind = $1`,
        [kind],
      );
      const due = row?.due;
      return due === null || due === undefined ? null : Number(due);
    },

    /** Deletes rows delivered or given up before `before`; returns how many. */
    purge(before: number, limit?: number): Promise<number> {
      return sql.run(deleteWhere('outbox', 'id', `state <> 'queued' AND created_at < $1`, limit), [before]);
    },
  };
}

export type OutboxRecords = ReturnType<typeof createOutboxRecords>;
