import type { Joined, Role } from '../members/member-records.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { deleteWhere } from '../../storage/limited-delete.ts';

/** What was done: the dashboard's and the operator's actions. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'password_changed',
  'password_reset',
  'project_created',
  'project_renamed',
  'plan_changed',
  'key_created',
  'key_revoked',
  'domain_added',
  'domain_checked',
  'domain_verified',
  'domain_primary',
  'domain_removed',
  'member_added',
  'member_removed',
  'role_changed',
  'invitation_created',
  'invitation_revoked',
  'invitation_resent',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_required',
  'invitation_accepted',
  'key_rolled',
  'key_updated',
  'key_unbanned',
  'access_token_created',
  'access_token_revoked',
  'account_created',
  'account_removed',
  'signed_out_everywhere',
  'recovery_codes_regenerated',
  'passkey_added',
  'passkey_removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * How the trail records an accepted invitation, by what it did: a new member, a member given a higher
 * role, or a member whose role stayed (an invitation never lowers one).
 */
export function invitationAcceptedRecord(
  email: string,
  invited: Role,
  joined: Joined,
): { action: AuditAction; target: string } {
  if (joined.before === undefined)
    return { action: 'member_added', target: `${email} as ${joined.role} (invitation)` };
  if (joined.before !== joined.role) {
    return { action: 'role_changed', target: `${email}: ${joined.before} → ${joined.role} (invitation)` };
  }
  return {
    action: 'invitation_accepted',
    target: `${email} stays ${joined.role} (invitation as ${invited})`,
  };
}

export interface AuditEvent {
  at: number;
  /** The project acted on; null for an account's own action (sign-in, password change). */
  projectId: string | null;
  actorAccountId: string | null;
  /** The account's email, or `operator` for the command line. */
  actor: string;
  action: AuditAction;
  /** What was acted on, as people name it: a key's label and prefix, a hostname, an email and role. */
  target: string | null;
  /** The client address; null from the command line. */
  address: string | null;
  /** The door it came through: `dashboard`, `cli`, `service` or `token:<access token id>` (null: not recorded). */
  via?: string | null;
}

export interface StoredAuditEvent extends AuditEvent {
  id: string;
}

export interface AuditQuery {
  projectId: string;
  /** Inclusive, epoch ms. */
  since?: number;
  /** Exclusive, epoch ms. */
  until?: number;
  /** Only this actor's events: an account's email (any case), `operator` or `service`. */
  actor?: string;
  /** Only events of this action. */
  action?: AuditAction;
  before?: { at: number; id: string };
  limit: number;
  /**
   * With the members' own events (sign-ins with their addresses, password changes), each from the
   * moment the account joined the project: for owners and the operator. Default: the project's alone.
   */
  accountEvents?: boolean;
}

export interface AuditRecords {
  record(event: AuditEvent): Promise<void>;
  /**
   * The project's events and, when asked, its current members' own (sign-ins, password changes) since
   * each joined, newest first.
   */
  list(query: AuditQuery): Promise<StoredAuditEvent[]>;
  /** Deletes events before `before`; resolves with how many. */
  purge(before: number, limit?: number): Promise<number>;
}

const COLUMNS = 'e.id, e.at, e.project_id, e.actor_account_id, e.actor, e.action, e.target, e.address, e.via';

/** One implementation for SQLite and PostgreSQL. */
export function createAuditRecords(sql: SqlExecutor): AuditRecords {
  return {
    async record(event) {
      await sql.run(
        `INSERT INTO audit_log (at, project_id, actor_account_id, actor, action, target, address, via)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          event.at,
          event.projectId,
          event.actorAccountId,
          event.actor,
          event.action,
          event.target,
          event.address,
          event.via ?? null,
        ],
      );
    },
    async list(query) {
      const params: unknown[] = [query.projectId, query.since ?? 0, query.limit];
      let page = '';
      if (query.before) {
        params.push(query.before.at, BigInt(query.before.id));
        page = `AND (e.at, e.id) < ($${params.length - 1}, $${params.length})`;
      }
      if (query.until !== undefined) {
        params.push(query.until);
        page += ` AND e.at < $${params.length}`;
      }
      if (query.actor !== undefined) {
        params.push(query.actor.toLowerCase());
        page += ` AND lower(e.actor) = $${params.length}`;
      }
      if (query.action !== undefined) {
        params.push(query.action);
        page += ` AND e.action = $${params.length}`;
      }
      const select = (from: string, where: string) =>
        `SELECT ${COLUMNS} FROM ${from} WHERE ${where} AND e.at >= $2 ${page}`;
      const own = select('audit_log e', 'e.project_id = $1');
      // A member's own events from the day they joined: not their past, nor their work before.
      const members = select(
        'audit_log e JOIN memberships m ON m.account_id = e.actor_account_id AND m.project_id = $1',
        'e.project_id IS NULL AND e.at >= m.created_at',
      );
      const rows = await sql.all(
        `SELECT * FROM (${query.accountEvents ? `${own} UNION ALL ${members}` : own}) events
         ORDER BY at DESC, id DESC LIMIT $3`,
        params,
      );
      return rows.map((row) => ({
        id: String(row.id),
        at: Number(row.at),
        projectId: (row.project_id as string | null) ?? null,
        actorAccountId: (row.actor_account_id as string | null) ?? null,
        actor: row.actor as string,
        action: row.action as AuditAction,
        target: (row.target as string | null) ?? null,
        address: (row.address as string | null) ?? null,
        via: (row.via as string | null) ?? null,
      }));
    },
    async purge(before, limit) {
      return sql.run(deleteWhere('audit_log', 'id', 'at < $1', limit), [before]);
    },
  };
}
