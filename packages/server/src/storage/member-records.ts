import type { SqlExecutor } from './sql-executor.ts';

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

export interface MemberRecords {
  /** The account's role in the project; undefined when it is not a member. */
  roleOf(accountId: string, projectId: string): Promise<Role | undefined>;
  /** The project's members, owners first, then by email. */
  members(projectId: string): Promise<Member[]>;
  /** A project always keeps an owner: the last one cannot become anything else. */
  setRole(accountId: string, projectId: string, role: Role): Promise<MemberChange>;
  /** A project always keeps an owner: the last one cannot be removed. */
  removeMember(accountId: string, projectId: string): Promise<MemberChange>;
}

/** Keeps the row unless it is not an owner's or another owner remains (one statement: no gap between). */
const ANOTHER_OWNER = `(role <> 'owner' OR EXISTS (SELECT 1 FROM memberships o
  WHERE o.project_id = $2 AND o.role = 'owner' AND o.account_id <> $1))`;

export function createMemberRecords(sql: SqlExecutor): MemberRecords {
  const why = async (accountId: string, projectId: string, changed: number): Promise<MemberChange> => {
    if (changed > 0) return 'done';
    const rows = await sql.all('SELECT 1 AS one FROM memberships WHERE account_id = $1 AND project_id = $2', [
      accountId,
      projectId,
    ]);
    return rows.length === 0 ? 'not_member' : 'last_owner';
  };
  return {
    async roleOf(accountId, projectId) {
      const [row] = await sql.all('SELECT role FROM memberships WHERE account_id = $1 AND project_id = $2', [
        accountId,
        projectId,
      ]);
      return row?.role as Role | undefined;
    },
    async members(projectId) {
      const rows = await sql.all(
        `SELECT m.account_id, a.email, m.role, m.created_at FROM memberships m
         JOIN accounts a ON a.id = m.account_id WHERE m.project_id = $1
         ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'developer' THEN 1 ELSE 2 END, a.email`,
        [projectId],
      );
      return rows.map((row) => ({
        accountId: row.account_id as string,
        email: row.email as string,
        role: row.role as Role,
        since: Number(row.created_at),
      }));
    },
    async setRole(accountId, projectId, role) {
      const changed = await sql.run(
        `UPDATE memberships SET role = $3 WHERE account_id = $1 AND project_id = $2
         AND ($3 = 'owner' OR ${ANOTHER_OWNER})`,
        [accountId, projectId, role],
      );
      return why(accountId, projectId, changed);
    },
    async removeMember(accountId, projectId) {
      const changed = await sql.run(
        `DELETE FROM memberships WHERE account_id = $1 AND project_id = $2 AND ${ANOTHER_OWNER}`,
        [accountId, projectId],
      );
      return why(accountId, projectId, changed);
    },
  };
}
