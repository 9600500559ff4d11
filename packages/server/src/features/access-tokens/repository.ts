import type { Row } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

export type TokenScope = 'read' | 'write';

/** An account's access token to the management API; only the secret's digest is kept. */
export interface AccessToken {
  id: string;
  digest: string;
  accountId: string;
  name: string;
  prefix: string;
  scope: TokenScope;
  /** Whether it may list, create and revoke its account's tokens through the management API. */
  managesTokens: boolean;
  /** The projects it may act on, by id. */
  projectIds: string[];
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export type NewAccessToken = Omit<AccessToken, 'revokedAt' | 'lastUsedAt'>;

/** A token as the audit trail and the pages name it. */
export type TokenName = Pick<AccessToken, 'id' | 'name' | 'prefix'>;

/** An account may hold at most this many tokens that are neither revoked nor expired. */
export const MAX_ACTIVE_TOKENS = 50;

/**
 * The first statement of a transaction that counts or changes an account's tokens. PostgreSQL: the
 * account's row, locked until the transaction ends, so two creations cannot both take the last place
 * under MAX_ACTIVE_TOKENS; SQLite's `BEGIN IMMEDIATE` already runs one writer at a time.
 */
export async function lockAccount(sql: SqlExecutor, kind: 'sqlite' | 'postgres', accountId: string) {
  if (kind === 'postgres')
    await sql.all('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
}

const COLUMNS = `t.id, t.digest, t.account_id, t.name, t.prefix, t.scope, t.manages_tokens, t.created_at,
  t.expires_at, t.revoked_at, t.last_used_at`;

const nullable = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function toToken(row: Row, projectIds: string[]): AccessToken {
  return {
    id: row.id as string,
    digest: row.digest as string,
    accountId: row.account_id as string,
    name: row.name as string,
    prefix: row.prefix as string,
    scope: row.scope as TokenScope,
    // SQLite answers 0 or 1, PostgreSQL a boolean.
    managesTokens: row.manages_tokens === true || Number(row.manages_tokens) === 1,
    projectIds,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    revokedAt: nullable(row.revoked_at),
    lastUsedAt: nullable(row.last_used_at),
  };
}

/** The access tokens' statements, written once for SQLite and PostgreSQL. */
export function accessTokenRecords(sql: SqlExecutor) {
  const withProjects = async (rows: Row[]): Promise<AccessToken[]> =>
    Promise.all(
      rows.map(async (row) => {
        const projects = await sql.all(
          'SELECT project_id FROM access_token_projects WHERE token_id = $1 ORDER BY project_id',
          [row.id],
        );
        return toToken(
          row,
          projects.map((project) => project.project_id as string),
        );
      }),
    );
  /** Lets the token reach one more project (one it created, say). */
  const grantProject = async (tokenId: string, projectId: string): Promise<void> => {
    await sql.run('INSERT INTO access_token_projects (token_id, project_id) VALUES ($1, $2)', [
      tokenId,
      projectId,
    ]);
  };
  return {
    async insert(token: NewAccessToken): Promise<void> {
      await sql.run(
        `INSERT INTO access_tokens (id, digest, account_id, name, prefix, scope, manages_tokens, created_at,
           expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          token.id,
          token.digest,
          token.accountId,
          token.name,
          token.prefix,
          token.scope,
          token.managesTokens ? 1 : 0,
          token.createdAt,
          token.expiresAt,
        ],
      );
      for (const projectId of token.projectIds) await grantProject(token.id, projectId);
    },
    grantProject,
    async byDigest(digest: string): Promise<AccessToken | undefined> {
      const rows = await sql.all(`SELECT ${COLUMNS} FROM access_tokens t WHERE t.digest = $1`, [digest]);
      return (await withProjects(rows))[0];
    },
    async forAccount(accountId: string): Promise<AccessToken[]> {
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM access_tokens t WHERE t.account_id = $1 ORDER BY t.created_at DESC, t.id`,
        [accountId],
      );
      return withProjects(rows);
    },
    /** The account's tokens that are neither revoked nor expired at `now`, newest first. */
    async active(accountId: string, now: number): Promise<AccessToken[]> {
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM access_tokens t WHERE t.account_id = $1 AND t.revoked_at IS NULL
         AND t.expires_at > $2 ORDER BY t.created_at DESC, t.id`,
        [accountId, now],
      );
      return withProjects(rows);
    },
    /** Every token row of the account, revoked and expired ones too. */
    async countAll(accountId: string): Promise<number> {
      const [row] = await sql.all('SELECT count(*) AS n FROM access_tokens WHERE account_id = $1', [
        accountId,
      ]);
      return Number(row!.n);
    },
    async countActive(accountId: string, now: number): Promise<number> {
      const [row] = await sql.all(
        'SELECT count(*) AS n FROM access_tokens WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2',
        [accountId, now],
      );
      return Number(row!.n);
    },
    /**
     * Revokes every token of the account that is neither revoked nor expired, but those in `keep`;
     * the tokens it revoked.
     */
    async revokeAll(accountId: string, at: number, keep: readonly string[] = []): Promise<TokenName[]> {
      const kept = keep.length === 0 ? '' : `AND id NOT IN (${keep.map((_, i) => `$${i + 3}`).join(', ')})`;
      const rows = await sql.all(
        `UPDATE access_tokens SET revoked_at = $2
         WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2 ${kept} RETURNING id, name, prefix`,
        [accountId, at, ...keep],
      );
      return rows
        .map((row) => ({ id: row.id as string, name: row.name as string, prefix: row.prefix as string }))
        .sort((a, b) => a.id.localeCompare(b.id));
    },
    /** Whether an unrevoked token of the account was revoked now. */
    async revoke(accountId: string, id: string, at: number): Promise<boolean> {
      const changed = await sql.run(
        'UPDATE access_tokens SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
        [id, accountId, at],
      );
      return changed > 0;
    },
    /** Records a use, unless a later one is recorded. */
    async touch(id: string, at: number): Promise<void> {
      await sql.run(
        'UPDATE access_tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)',
        [id, at],
      );
    },
  };
}

export type AccessTokenRecords = ReturnType<typeof accessTokenRecords>;
