import { DELIVERY_COLUMNS, deliveryOf, type Invitation } from './invitation-records.ts';
import {
  ANOTHER_OWNER,
  type Member,
  type RevokedInvitation,
  type Role,
  RANK,
  REVOKE_IF_NOT_OWNER,
  ROLE_NOW,
  lockProject,
} from './member-records.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** Why a change of a member was not made: not a member, or the project's last owner. */
export type MemberChange = 'done' | 'not_member' | 'last_owner';

/**
 * The memberships table's writes of the members service, inside its transactions. Changes that could
 * leave a project without an owner first take the project's lock (`lockProject`), so of two owners
 * removing or demoting each other at the same moment one change sees the other's, whatever the database.
 */
export function memberRecords(sql: SqlExecutor, kind: Store['kind']) {
  const roleNow = async (accountId: string, projectId: string): Promise<Role | undefined> =>
    (await sql.all(ROLE_NOW, [accountId, projectId]))[0]?.role as Role | undefined;
  /** The change, or why it was not made (read after it, under the project's lock). */
  const outcomeOf = async (changed: number, accountId: string, projectId: string): Promise<MemberChange> =>
    changed > 0 ? 'done' : (await roleNow(accountId, projectId)) === undefined ? 'not_member' : 'last_owner';
  return {
    /** The project's lock, taken first (lockProject in member-records.ts). */
    lockProject: (projectId: string): Promise<void> => lockProject(sql, kind, projectId),
    roleOf: roleNow,
    async member(projectId: string, accountId: string): Promise<Member | undefined> {
      const [row] = await sql.all(
        `SELECT m.account_id, a.email, m.role, m.created_at FROM memberships m
         JOIN accounts a ON a.id = m.account_id WHERE m.project_id = $1 AND m.account_id = $2`,
        [projectId, accountId],
      );
      return (
        row && {
          accountId: row.account_id as string,
          email: row.email as string,
          role: row.role as Role,
          since: Number(row.created_at),
        }
      );
    },
    /** Removes the member unless it is the project's last owner. */
    async remove(accountId: string, projectId: string): Promise<MemberChange> {
      const changed = await sql.run(
        `DELETE FROM memberships WHERE account_id = $1 AND project_id = $2 AND ${ANOTHER_OWNER}`,
        [accountId, projectId],
      );
      return outcomeOf(changed, accountId, projectId);
    },
    /** Gives the member `role`, unless that would leave the project without an owner. */
    async setRole(accountId: string, projectId: string, role: Role): Promise<MemberChange> {
      const changed = await sql.run(
        `UPDATE memberships SET role = $3 WHERE account_id = $1 AND project_id = $2
         AND ($3 = 'owner' OR ${ANOTHER_OWNER})`,
        [accountId, projectId, role],
      );
      return outcomeOf(changed, accountId, projectId);
    },
    /** Makes the account a member with `role`; whether it was not one before. */
    async add(accountId: string, projectId: string, at: number, role: Role): Promise<boolean> {
      const changed = await sql.run(
        `INSERT INTO memberships (account_id, project_id, created_at, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, project_id) DO NOTHING`,
        [accountId, projectId, at, role],
      );
      return changed > 0;
    },
    /** Joins with `role`, or raises a member's role to it: an invitation never lowers one. */
    async join(accountId: string, projectId: string, at: number, role: Role): Promise<void> {
      await sql.run(
        `INSERT INTO memberships (account_id, project_id, created_at, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, project_id) DO UPDATE SET role = excluded.role
         WHERE ${RANK('excluded.role')} < ${RANK('memberships.role')}`,
        [accountId, projectId, at, role],
      );
    },
    /** Only owners invite: the pending invitations of an account that is no longer an owner go. */
    async revokeInvitationsOfNonOwner(accountId: string, projectId: string): Promise<RevokedInvitation[]> {
      const rows = await sql.all(REVOKE_IF_NOT_OWNER, [accountId, projectId]);
      return rows.map((row) => ({
        id: row.id as string,
        email: row.email as string,
        role: row.role as Role,
      }));
    },
  };
}

/** A pending invitation with the email of the owner who made it (null: the operator). */
export interface PendingInvitation extends Invitation {
  inviterEmail: string | null;
}

const COLUMNS = `i.id, i.token_digest, i.project_id, i.email, i.role, i.invited_by, i.created_at, i.expires_at,
  i.accepted_at, a.email AS inviter_email, ${DELIVERY_COLUMNS('i')}`;

/** The invitations table's reads and writes of the members service. */
export function invitationRecords(sql: SqlExecutor) {
  return {
    /** The email of the account that made an invitation (null: the operator, or an account since removed). */
    async inviterEmail(invitation: Invitation): Promise<string | null> {
      if (invitation.invitedBy === null) return null;
      const [row] = await sql.all('SELECT email FROM accounts WHERE id = $1', [invitation.invitedBy]);
      return (row?.email as string | undefined) ?? null;
    },
    /** Pending at `now`, newest first, after `after` (the previous page's last). */
    async page(projectId: string, now: number, after: { at: number; id: string } | undefined, limit: number) {
      const params: unknown[] = [projectId, now, limit];
      let from = '';
      if (after) {
        params.push(after.at, after.id);
        from = 'AND (i.created_at < $4 OR (i.created_at = $4 AND i.id < $5))';
      }
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM invitations i LEFT JOIN accounts a ON a.id = i.invited_by
         WHERE i.project_id = $1 AND i.accepted_at IS NULL AND i.expires_at > $2 ${from}
         ORDER BY i.created_at DESC, i.id DESC LIMIT $3`,
        params,
      );
      return rows.map((row): PendingInvitation => ({
        id: row.id as string,
        tokenDigest: row.token_digest as string,
        projectId: row.project_id as string,
        email: row.email as string,
        role: row.role as Role,
        invitedBy: (row.invited_by as string | null) ?? null,
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
        acceptedAt: null,
        inviterEmail: (row.inviter_email as string | null) ?? null,
        delivery: deliveryOf(row),
      }));
    },
  };
}
