import type { Role } from './member-records.ts';
import { DELIVERY_ORDER, type Delivery } from '../../mail/outbox-records.ts';
import type { Row } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** An invitation to join a project with a role, by a single-use link. */
export interface Invitation {
  id: string;
  /** SHA-256 of the link's token; the token itself is never stored. */
  tokenDigest: string;
  projectId: string;
  /** Lower-case; who may accept it (the account with this email, or a new one). */
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  /** Its latest mail, where read with it: null when none was sent (the operator printed its link). */
  delivery?: Delivery | null;
}

export interface InvitationRecords {
  createInvitation(invitation: Invitation): Promise<void>;
  /** The invitation whose token has this digest, accepted or expired or not. */
  invitationByToken(tokenDigest: string): Promise<Invitation | undefined>;
  /** The project's invitations not accepted and not expired at `now`, newest first. */
  pendingInvitations(projectId: string, now: number): Promise<Invitation[]>;
  /**
   * Marks it accepted if it is still pending at `now` and whoever made it is still an owner of the
   * project (or it is the operator's): true once, for one caller only.
   */
  acceptInvitation(tokenDigest: string, now: number): Promise<boolean>;
  /** A pending invitation's new link and expiry (sent again at `now`): false when it is pending no more. */
  renewInvitation(invitation: Invitation, now: number): Promise<boolean>;
  /** Deletes a pending invitation of the project; resolves with it, or undefined when there is none. */
  revokeInvitation(projectId: string, id: string): Promise<Invitation | undefined>;
}

const COLUMNS = 'id, token_digest, project_id, email, role, invited_by, created_at, expires_at, accepted_at';

/** The delivery of invitation `i`'s mail (migration 170): its latest outbox row (DELIVERY_ORDER). */
export const DELIVERY_COLUMNS = (i: string) =>
  ['id', 'state', 'attempts']
    .map(
      (column) => `(SELECT o.${column} FROM outbox o WHERE o.subject_ref = ${i}.id
        ORDER BY ${DELIVERY_ORDER} LIMIT 1) AS delivery_${column}`,
    )
    .join(', ');

/** The delivery columns of a row (DELIVERY_COLUMNS): null when no mail was queued for it. */
export function deliveryOf(row: Row): Delivery | null {
  if (row.delivery_id === null || row.delivery_id === undefined) return null;
  return {
    id: row.delivery_id as string,
    state: row.delivery_state as Delivery['state'],
    attempts: Number(row.delivery_attempts),
  };
}

function toInvitation(row: Row): Invitation {
  return {
    id: row.id as string,
    tokenDigest: row.token_digest as string,
    projectId: row.project_id as string,
    email: row.email as string,
    role: row.role as Role,
    invitedBy: (row.invited_by as string | null) ?? null,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    acceptedAt: row.accepted_at === null || row.accepted_at === undefined ? null : Number(row.accepted_at),
    ...('delivery_id' in row ? { delivery: deliveryOf(row) } : {}),
  };
}

export function createInvitationRecords(sql: SqlExecutor): InvitationRecords {
  return {
    async createInvitation(invitation) {
      await sql.run(`INSERT INTO invitations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
        invitation.id,
        invitation.tokenDigest,
        invitation.projectId,
        invitation.email,
        invitation.role,
        invitation.invitedBy,
        invitation.createdAt,
        invitation.expiresAt,
        invitation.acceptedAt,
      ]);
    },
    async invitationByToken(tokenDigest) {
      const [row] = await sql.all(`SELECT ${COLUMNS} FROM invitations WHERE token_digest = $1`, [
        tokenDigest,
      ]);
      return row && toInvitation(row);
    },
    async pendingInvitations(projectId, now) {
      const rows = await sql.all(
        `SELECT ${COLUMNS}, ${DELIVERY_COLUMNS('invitations')} FROM invitations
         WHERE project_id = $1 AND accepted_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id`,
        [projectId, now],
      );
      return rows.map(toInvitation);
    },
    async acceptInvitation(tokenDigest, now) {
      const changed = await sql.run(
        `UPDATE invitations SET accepted_at = $2
         WHERE token_digest = $1 AND accepted_at IS NULL AND expires_at > $2
         AND (invited_by IS NULL OR EXISTS (SELECT 1 FROM memberships m WHERE m.account_id = invitations.invited_by
           AND m.project_id = invitations.project_id AND m.role = 'owner'))`,
        [tokenDigest, now],
      );
      return changed > 0;
    },
    async renewInvitation(invitation, now) {
      const changed = await sql.run(
        `UPDATE invitations SET token_digest = $3, expires_at = $5
         WHERE project_id = $1 AND id = $2 AND accepted_at IS NULL AND expires_at > $4`,
        [invitation.projectId, invitation.id, invitation.tokenDigest, now, invitation.expiresAt],
      );
      return changed > 0;
    },
    async revokeInvitation(projectId, id) {
      const [row] = await sql.all(
        `DELETE FROM invitations WHERE project_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING ${COLUMNS}`,
        [projectId, id],
      );
      return row && toInvitation(row);
    },
  };
}

/**
 * Only owners invite: the pending invitations `accountId` made in the project go once it is no longer
 * one of its owners (inside the caller's transaction, after the change of its role).
 */
export async function revokeInvitationsOfNonOwner(
  sql: SqlExecutor,
  accountId: string,
  projectId: string,
): Promise<{ id: string; email: string; role: Role }[]> {
  const rows = await sql.all(
    `DELETE FROM invitations WHERE project_id = $2 AND invited_by = $1
     AND accepted_at IS NULL AND NOT EXISTS (SELECT 1 FROM memberships m
       WHERE m.account_id = $1 AND m.project_id = $2 AND m.role = 'owner')
     RETURNING id, email, role`,
    [accountId, projectId],
  );
  return rows.map((row) => ({ id: row.id as string, email: row.email as string, role: row.role as Role }));
}

/** Deletes the invitations an account made that nobody accepted (before the account itself goes). */
export async function deleteUnacceptedInvitationsBy(
  sql: SqlExecutor,
  accountId: string,
): Promise<{ projectId: string; email: string; role: Role }[]> {
  const rows = await sql.all(
    `DELETE FROM invitations WHERE invited_by = $1 AND accepted_at IS NULL
     RETURNING project_id, email, role`,
    [accountId],
  );
  return rows.map((row) => ({
    projectId: row.project_id as string,
    email: row.email as string,
    role: row.role as Role,
  }));
}
