import type { Role } from '../../http/route-config.ts';
import type { SqlExecutor, Transactions } from '../../storage/sql-executor.ts';

/** What a member may do in a project: everything, keys and logs, or only read. */
export type { Role };
export const ROLES: readonly Role[] = ['owner', 'developer', 'viewer'];

export interface Member {
  accountId: string;
  email: string;
  role: Role;
  /** When the account joined the project. */
  since: number;
}

/** Why a change of members was not made. */
export type MemberChange = 'done' | 'not_member' | 'last_owner';

/** A pending invitation revoked with its inviter's removal or demotion. */
export interface RevokedInvitation {
  id: string;
  email: string;
  role: Role;
}

/** What a change of members did: its outcome, and the pending invitations it revoked. */
export interface MemberChanged {
  outcome: MemberChange;
  /** The member's pending invitations, once the member is an owner no more (only owners invite). */
  revoked: RevokedInvitation[];
}

/** What accepting an invitation did: the role held before (none: joined) and the role held now. */
export interface Joined {
  before: Role | undefined;
  role: Role;
}

export interface MemberRecords {
  /** The account's role in the project; undefined when it is not a member. */
  roleOf(accountId: string, projectId: string): Promise<Role | undefined>;
  /** The project's members, owners first, then by email. */
  members(projectId: string): Promise<Member[]>;
  /**
   * A project always keeps an owner: the last one cannot become anything else, whatever runs at the
   * same time. An owner made developer or viewer loses the invitations they made, in the same transaction.
   */
  setRole(accountId: string, projectId: string, role: Role): Promise<MemberChanged>;
  /**
   * A project always keeps an owner: the last one cannot be removed, whatever runs at the same time.
   * The member's pending invitations are revoked in the same transaction.
   */
  removeMember(accountId: string, projectId: string): Promise<MemberChanged>;
  /**
   * Joins the project by an invitation of `role`; a member already keeps the higher of the two roles
   * (an invitation never takes a role away).
   */
  joinByInvitation(accountId: string, projectId: string, at: number, role: Role): Promise<Joined>;
}

/** Keeps the row unless it is not an owner's or another owner remains (after the project's lock). */
export const ANOTHER_OWNER = `(role <> 'owner' OR EXISTS (SELECT 1 FROM memberships o
  WHERE o.project_id = $2 AND o.role = 'owner' AND o.account_id <> $1))`;

/** Only owners invite: the pending invitations of an account that is no longer an owner are revoked. */
export const REVOKE_IF_NOT_OWNER = `DELETE FROM invitations WHERE project_id = $2 AND invited_by = $1
  AND accepted_at IS NULL AND NOT EXISTS (SELECT 1 FROM memberships m
    WHERE m.account_id = $1 AND m.project_id = $2 AND m.role = 'owner')
  RETURNING id, email, role`;

export const ROLE_NOW = 'SELECT role FROM memberships WHERE account_id = $1 AND project_id = $2';

export const RANK = (column: string) =>
  `CASE ${column} WHEN 'owner' THEN 0 WHEN 'developer' THEN 1 ELSE 2 END`;

/**
 * The first statement of a transaction that changes a project's members or invitations. PostgreSQL:
 * the project's row, locked until the transaction ends (`FOR NO KEY UPDATE`: inserts referring to it
 * still pass), so such transactions of one project run one after another and each later statement,
 * under READ COMMITTED, sees what committed before. SQLite's `BEGIN IMMEDIATE` already runs one
 * writer at a time.
 */
export async function lockProject(sql: SqlExecutor, kind: 'sqlite' | 'postgres', projectId: string) {
  if (kind === 'postgres')
    await sql.all('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
}

/** One implementation for SQLite and PostgreSQL; changes are transactions that lock the project first. */
export function createMemberRecords(
  sql: SqlExecutor,
  transaction: Transactions['transaction'],
  kind: 'sqlite' | 'postgres',
): MemberRecords {
  /** The change, the revocation it entails and the role left, as one transaction. */
  const change = (accountId: string, projectId: string, statement: string, params: unknown[]) =>
    transaction(async (tx) => {
      await lockProject(tx, kind, projectId);
      const changed = await tx.all(statement, params);
      const revoked = await tx.all(REVOKE_IF_NOT_OWNER, [accountId, projectId]);
      const left = await tx.all(ROLE_NOW, [accountId, projectId]);
      const outcome: MemberChange =
        changed.length > 0 ? 'done' : left.length === 0 ? 'not_member' : 'last_owner';
      return {
        outcome,
        revoked: revoked.map((row) => ({
          id: row.id as string,
          email: row.email as string,
          role: row.role as Role,
        })),
      };
    });
  return {
    async roleOf(accountId, projectId) {
      const [row] = await sql.all(ROLE_NOW, [accountId, projectId]);
      return row?.role as Role | undefined;
    },
    async members(projectId) {
      const rows = await sql.all(
        `SELECT m.account_id, a.email, m.role, m.created_at FROM memberships m
         JOIN accounts a ON a.id = m.account_id WHERE m.project_id = $1
         ORDER BY ${RANK('m.role')}, a.email`,
        [projectId],
      );
      return rows.map((row) => ({
        accountId: row.account_id as string,
        email: row.email as string,
        role: row.role as Role,
        since: Number(row.created_at),
      }));
    },
    setRole: (accountId, projectId, role) =>
      change(
        accountId,
        projectId,
        `UPDATE memberships SET role = $3 WHERE account_id = $1 AND project_id = $2
         AND ($3 = 'owner' OR ${ANOTHER_OWNER}) RETURNING role`,
        [accountId, projectId, role],
      ),
    removeMember: (accountId, projectId) =>
      change(
        accountId,
        projectId,
        `DELETE FROM memberships WHERE account_id = $1 AND project_id = $2 AND ${ANOTHER_OWNER} RETURNING role`,
        [accountId, projectId],
      ),
    joinByInvitation: (accountId, projectId, at, role) =>
      transaction(async (tx) => {
        await lockProject(tx, kind, projectId);
        const [before] = await tx.all(ROLE_NOW, [accountId, projectId]);
        await tx.run(
          `INSERT INTO memberships (account_id, project_id, created_at, role) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id, project_id) DO UPDATE SET role = excluded.role
           WHERE ${RANK('excluded.role')} < ${RANK('memberships.role')}`,
          [accountId, projectId, at, role],
        );
        const [now] = await tx.all(ROLE_NOW, [accountId, projectId]);
        return { before: before?.role as Role | undefined, role: now?.role as Role };
      }),
  };
}
