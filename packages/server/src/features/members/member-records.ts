import type { SqlBatch, SqlExecutor } from '../../storage/sql-executor.ts';

/** What a member may do in a project: everything, keys and logs, or only read. */
export type Role = 'owner' | 'developer' | 'viewer';
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

/** One implementation for SQLite and PostgreSQL; changes run as batches locking the project. */
export function createMemberRecords(sql: SqlExecutor, batch: SqlBatch): MemberRecords {
  /** The change, the revocation it entails and the role left, as one transaction. */
  const change = async (accountId: string, projectId: string, statement: string, params: unknown[]) => {
    const [changed, revoked, left] = await batch(
      [
        { sql: statement, params },
        { sql: REVOKE_IF_NOT_OWNER, params: [accountId, projectId] },
        { sql: ROLE_NOW, params: [accountId, projectId] },
      ],
      projectId,
    );
    const outcome: MemberChange =
      changed!.length > 0 ? 'done' : left!.length === 0 ? 'not_member' : 'last_owner';
    return {
      outcome,
      revoked: revoked!.map((row) => ({
        id: row.id as string,
        email: row.email as string,
        role: row.role as Role,
      })),
    };
  };
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
    async joinByInvitation(accountId, projectId, at, role) {
      const [before, , now] = await batch(
        [
          { sql: ROLE_NOW, params: [accountId, projectId] },
          {
            sql: `INSERT INTO memberships (account_id, project_id, created_at, role) VALUES ($1, $2, $3, $4)
                  ON CONFLICT (account_id, project_id) DO UPDATE SET role = excluded.role
                  WHERE ${RANK('excluded.role')} < ${RANK('memberships.role')}`,
            params: [accountId, projectId, at, role],
          },
          { sql: ROLE_NOW, params: [accountId, projectId] },
        ],
        projectId,
      );
      return { before: before![0]?.role as Role | undefined, role: now![0]?.role as Role };
    },
  };
}
