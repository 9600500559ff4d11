import type { SqlExecutor } from './sql-executor.ts';

/** What was done: the dashboard's and the operator's actions. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'password_changed',
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
  'key_rolled',
  'access_token_created',
  'access_token_revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * How the trail records a domain's check, whoever made it (dashboard, command line, background checks):
 * verified, or checked with the state it was left in.
 */
export function domainCheckRecord(domain: { hostname: string; state: string }): {
  action: AuditAction;
  target: string;
} {
  return {
    action: domain.state === 'verified' ? 'domain_verified' : 'domain_checked',
    target: `${domain.hostname}: ${domain.state}`,
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
  before?: { at: number; id: string };
  limit: number;
}

export interface AuditRecords {
  record(event: AuditEvent): Promise<void>;
  /**
   * The project's events and its current members' own (sign-ins, password changes), newest first.
   */
  list(query: AuditQuery): Promise<StoredAuditEvent[]>;
  /** Deletes events before `before`; resolves with how many. */
  purge(before: number): Promise<number>;
}

const COLUMNS = 'id, at, project_id, actor_account_id, actor, action, target, address, via';

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
        page = 'AND (at, id) < ($4, $5)';
      }
      const select = (where: string) =>
        `SELECT ${COLUMNS} FROM audit_log WHERE ${where} AND at >= $2 ${page}`;
      const rows = await sql.all(
        `SELECT * FROM (
           ${select('project_id = $1')}
           UNION ALL
           ${select(`project_id IS NULL AND actor_account_id IN (SELECT account_id FROM memberships WHERE project_id = $1)`)}
         ) events ORDER BY at DESC, id DESC LIMIT $3`,
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
    async purge(before) {
      return sql.run('DELETE FROM audit_log WHERE at < $1', [before]);
    },
  };
}
