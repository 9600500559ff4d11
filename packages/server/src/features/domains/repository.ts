import { type CustomDomain, DOMAIN_COLUMNS, toDomain } from './domain-repository.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** Where a page of a project's domains starts: after this domain, in the order they were added. */
export interface DomainPosition {
  at: number;
  hostname: string;
}

/**
 * The custom domains' reads of the domains service beyond storage.domains: a project's domains by
 * page, in the order they were added (the order the dashboard shows), for SQLite and PostgreSQL.
 */
export function domainPages(sql: SqlExecutor) {
  return {
    async page(projectId: string, after: DomainPosition | undefined, limit: number): Promise<CustomDomain[]> {
      const rows = after
        ? await sql.all(
            `SELECT ${DOMAIN_COLUMNS} FROM custom_domains d WHERE d.project_id = $1
               AND (d.created_at > $2 OR (d.created_at = $2 AND d.hostname > $3))
             ORDER BY d.created_at, d.hostname LIMIT $4`,
            [projectId, after.at, after.hostname, limit],
          )
        : await sql.all(
            `SELECT ${DOMAIN_COLUMNS} FROM custom_domains d WHERE d.project_id = $1
             ORDER BY d.created_at, d.hostname LIMIT $2`,
            [projectId, limit],
          );
      return rows.map(toDomain);
    },
  };
}

/** The slugs of the projects that claim a name, in any state (at most `limit`), for the command line. */
export function domainClaims(sql: SqlExecutor) {
  return {
    async projectsOf(hostname: string, limit = 10): Promise<string[]> {
      const rows = await sql.all(
        `SELECT p.slug FROM custom_domains d JOIN projects p ON p.id = d.project_id
         WHERE d.hostname = $1 ORDER BY p.slug LIMIT $2`,
        [hostname, limit],
      );
      return rows.map((row) => row.slug as string);
    },
  };
}
