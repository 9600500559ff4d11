import { isForeignKeyViolation } from '../../storage/errors.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { deleteWhere } from '../../storage/limited-delete.ts';

/** Failed sign-ins of one subject (a digest naming an email's unknown devices, an address, a device). */
export interface ThrottleState {
  /** Failures in a row, forgotten once a day passes without one. */
  failures: number;
  lastFailureAt: number;
  /** No password is checked for the subject before this instant (epoch ms; 0: never blocked). */
  blockedUntil: number;
}

/** What sign-in protection keeps in the database, shared by every instance. */
export interface SignInRecords {
  /**
   * The secret stored under `name`; `candidate` is stored first when there is none, so every instance
   * ends up with the same value whoever asked first.
   */
  secret(name: string, candidate: string, at: number): Promise<string>;
  throttle(subject: string): Promise<ThrottleState | undefined>;
  /**
   * Counts one more failure and returns the count: failures before `forgetBefore` are forgotten (the
   * count starts again at 1). Then `blockedUntil(count)` is stored unless a later block already stands.
   */
  recordFailure(
    subject: string,
    now: number,
    forgetBefore: number,
    blockedUntil: (failures: number) => number,
  ): Promise<number>;
  clearThrottle(subject: string): Promise<void>;
  /** Deletes subjects whose last failure is before `before`; returns how many. */
  purgeThrottles(before: number, limit?: number): Promise<number>;
  /**
   * Holds an encrypted payload for one page of one session (replacing the previous one); nothing when
   * the session no longer exists.
   */
  putFlash(sessionDigest: string, page: string, payload: string, expiresAt: number): Promise<void>;
  /** The page's payload, deleted as it is read; undefined when none or expired. */
  takeFlash(sessionDigest: string, page: string, now: number): Promise<string | undefined>;
}

export function createSignInRecords(sql: SqlExecutor): SignInRecords {
  return {
    async secret(name, candidate, at) {
      await sql.run(
        'INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [name, candidate, at],
      );
      const [row] = await sql.all('SELECT value FROM server_secrets WHERE name = $1', [name]);
      return row!.value as string;
    },
    async throttle(subject) {
      const [row] = await sql.all(
        'SELECT failures, last_failure_at, blocked_until FROM sign_in_throttles WHERE subject = $1',
        [subject],
      );
      return (
        row && {
          failures: Number(row.failures),
          lastFailureAt: Number(row.last_failure_at),
          blockedUntil: Number(row.blocked_until),
        }
      );
    },
    async recordFailure(subject, now, forgetBefore, blockedUntil) {
      // One statement counts, so concurrent failures each get their own number.
      const [row] = await sql.all(
        `INSERT INTO sign_in_throttles (subject, failures, last_failure_at, blocked_until) VALUES ($1, 1, $2, 0)
         ON CONFLICT (subject) DO UPDATE SET
           failures = CASE WHEN sign_in_throttles.last_failure_at < $3 THEN 1 ELSE sign_in_throttles.failures + 1 END,
           last_failure_at = $2
         RETURNING failures`,
        [subject, now, forgetBefore],
      );
      const failures = Number(row!.failures);
      const until = blockedUntil(failures);
      if (until > now) {
        await sql.run(
          'UPDATE sign_in_throttles SET blocked_until = $2 WHERE subject = $1 AND blocked_until < $2',
          [subject, until],
        );
      }
      return failures;
    },
    async clearThrottle(subject) {
      await sql.run('DELETE FROM sign_in_throttles WHERE subject = $1', [subject]);
    },
    purgeThrottles: (before, limit) =>
      sql.run(deleteWhere('sign_in_throttles', 'subject', 'last_failure_at < $1', limit), [before]),
    async putFlash(sessionDigest, page, payload, expiresAt) {
      // A session that has just ended (its member removed by another owner meanwhile) keeps nothing:
      // nobody will see the flash, and the answer must not become a 500.
      await sql
        .run(
          `INSERT INTO session_flashes (session_digest, page, payload, expires_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (session_digest, page) DO UPDATE SET payload = $3, expires_at = $4`,
          [sessionDigest, page, payload, expiresAt],
        )
        .catch((error: unknown) => {
          if (!isForeignKeyViolation(error)) throw error;
        });
    },
    async takeFlash(sessionDigest, page, now) {
      const [row] = await sql.all(
        'DELETE FROM session_flashes WHERE session_digest = $1 AND page = $2 RETURNING payload, expires_at',
        [sessionDigest, page],
      );
      return row && Number(row.expires_at) > now ? (row.payload as string) : undefined;
    },
  };
}
