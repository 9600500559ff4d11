import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { deleteWhere } from '../../storage/limited-delete.ts';

/** A password reset link: only its token's SHA-256 is stored. */
export interface PasswordReset {
  tokenDigest: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
}

export interface PasswordResetRecords {
  createPasswordReset(reset: PasswordReset): Promise<void>;
  /** The account of a reset link still unused and unexpired at `now`; undefined otherwise. */
  pendingPasswordReset(tokenDigest: string, now: number): Promise<string | undefined>;
  /** Marks the link used if it is still pending at `now` and returns its account: once, for one caller. */
  usePasswordReset(tokenDigest: string, now: number): Promise<string | undefined>;
  /** Ends every reset link of the account (its password was just reset or changed); returns how many. */
  endPasswordResets(accountId: string): Promise<number>;
  /** Deletes links that expired before `now`; returns how many. */
  purgePasswordResets(now: number, limit?: number): Promise<number>;
}

export function createPasswordResetRecords(sql: SqlExecutor): PasswordResetRecords {
  return {
    async createPasswordReset(reset) {
      await sql.run(
        'INSERT INTO password_resets (token_digest, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        [reset.tokenDigest, reset.accountId, reset.createdAt, reset.expiresAt],
      );
    },
    async pendingPasswordReset(tokenDigest, now) {
      const [row] = await sql.all(
        'SELECT account_id FROM password_resets WHERE token_digest = $1 AND used_at IS NULL AND expires_at > $2',
        [tokenDigest, now],
      );
      return row?.account_id as string | undefined;
    },
    async usePasswordReset(tokenDigest, now) {
      const [row] = await sql.all(
        `UPDATE password_resets SET used_at = $2
         WHERE token_digest = $1 AND used_at IS NULL AND expires_at > $2 RETURNING account_id`,
        [tokenDigest, now],
      );
      return row?.account_id as string | undefined;
    },
    endPasswordResets: (accountId) =>
      sql.run('DELETE FROM password_resets WHERE account_id = $1', [accountId]),
    purgePasswordResets: (now, limit) =>
      sql.run(deleteWhere('password_resets', 'token_digest', 'expires_at <= $1', limit), [now]),
  };
}
