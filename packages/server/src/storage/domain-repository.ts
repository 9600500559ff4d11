import type { RecordCheck, VerificationState } from '../domains/verify.ts';
import type { Row } from './rows.ts';
import type { SqlExecutor } from './sql-executor.ts';

/** A project's custom domain as stored: what the last DNS check saw, and when to look again. */
export interface CustomDomain {
  /** Canonical: lower case, punycode, no trailing dot. */
  hostname: string;
  projectId: string;
  apex: boolean;
  /** The apex's ownership token (TXT `_petstore.<hostname>`). */
  token: string;
  state: VerificationState;
  reason: string | null;
  primary: boolean;
  /** Each expected record as last seen, and warnings (CAA). */
  checks: { records: RecordCheck[]; warnings: string[] };
  createdAt: number;
  verifiedAt: number | null;
  checkedAt: number | null;
  nextCheckAt: number;
  /** Why the last check got no DNS answer ("no answer from DNS in time for …"); null after an answer. */
  checkError: string | null;
  /** Checks in a row that got no answer: the retry backoff. */
  checkFailures: number;
  /** When a verified domain's records were first seen wrong, in the current run of answered checks. */
  wrongSince: number | null;
}

/** A check that got no DNS answer: only these change, never the state, reason or primary. */
export interface UnansweredCheck {
  checkError: string;
  checkFailures: number;
  nextCheckAt: number;
}

export interface CheckResult {
  state: VerificationState;
  reason: string | null;
  checks: CustomDomain['checks'];
  checkedAt: number;
  nextCheckAt: number;
  verifiedAt: number | null;
  wrongSince: number | null;
}

export interface DomainRepository {
  /** The domain, or undefined when the hostname is taken (by any project). */
  add(domain: CustomDomain): Promise<CustomDomain | undefined>;
  get(hostname: string): Promise<CustomDomain | undefined>;
  listForProject(projectId: string): Promise<CustomDomain[]>;
  /** Stores a check; a first verification makes the domain its project's primary if it has none. */
  recordCheck(hostname: string, result: CheckResult): Promise<boolean>;
  /** Stores a check that got no DNS answer, leaving what the last answer decided as it is. */
  recordUnanswered(hostname: string, check: UnansweredCheck): Promise<boolean>;
  /**
   * Domains due for a check (next_check_at <= now), at most `limit`, each claimed by pushing its next
   * check to `leaseUntil` in the same statement, so instances sharing the database never check one twice.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<CustomDomain[]>;
  /** Makes a verified domain the project's primary; false when it is not the project's or not verified. */
  setPrimary(projectId: string, hostname: string): Promise<boolean>;
  /**
   * Deletes the domain, remembering that the name was one (see `isOfRecord`); when it was the primary,
   * the project's oldest verified domain takes its place. False when it is not the project's.
   */
  remove(projectId: string, hostname: string, removedAt: number): Promise<boolean>;
  /** Verified domains of projects on a paid plan, the ones that are served. */
  listServed(): Promise<string[]>;
  /**
   * The address every other host of the project redirects to: its primary domain while that is
   * verified, else (its records are gone for now) its oldest verified domain; none without one.
   */
  primaryOf(projectId: string): Promise<string | undefined>;
  /** Whether a host is, or once was, a custom domain of any project, in any state. */
  isOfRecord(hostname: string): Promise<boolean>;
  /** Every such host. */
  listOfRecord(): Promise<string[]>;
  /** Remembers the DNS servers the running service checks with (`ip` or `ip:port`). */
  recordResolvers(servers: readonly string[], at: number): Promise<void>;
  /** The DNS servers the service last recorded, or undefined when no instance has started yet. */
  resolvers(): Promise<RecordedResolvers | undefined>;
}

export interface RecordedResolvers {
  servers: string[];
  recordedAt: number;
}

const COLUMNS =
  'd.hostname, d.project_id, d.apex, d.token, d.state, d.reason, d.is_primary, d.checks, d.created_at, d.verified_at, d.checked_at, d.next_check_at, d.check_error, d.check_failures, d.wrong_since';
const PAID = "('pro', 'business', 'enterprise')";

const bool = (value: unknown): boolean => value === true || Number(value) === 1;
const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function toDomain(row: Row): CustomDomain {
  return {
    hostname: row.hostname as string,
    projectId: row.project_id as string,
    apex: bool(row.apex),
    token: row.token as string,
    state: row.state as VerificationState,
    reason: (row.reason as string | null) ?? null,
    primary: bool(row.is_primary),
    checks: JSON.parse(row.checks as string) as CustomDomain['checks'],
    createdAt: Number(row.created_at),
    verifiedAt: nullableNumber(row.verified_at),
    checkedAt: nullableNumber(row.checked_at),
    nextCheckAt: Number(row.next_check_at),
    checkError: (row.check_error as string | null) ?? null,
    checkFailures: Number(row.check_failures),
    wrongSince: nullableNumber(row.wrong_since),
  };
}

/**
 * One implementation for SQLite and PostgreSQL: booleans are written TRUE/FALSE in statements and sent
 * as 1/0 in parameters, which both read.
 */
export function createDomainRepository(sql: SqlExecutor, changed: () => void): DomainRepository {
  const write = async (query: string, params: unknown[]) => {
    const count = await sql.run(query, params);
    if (count > 0) changed();
    return count > 0;
  };
  return {
    async add(domain) {
      const [row] = await sql.all(
        `INSERT INTO custom_domains (hostname, project_id, apex, token, state, reason, is_primary, checks, created_at, verified_at, checked_at, next_check_at, check_error, check_failures, wrong_since)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT DO NOTHING RETURNING hostname`,
        [
          domain.hostname,
          domain.projectId,
          domain.apex ? 1 : 0,
          domain.token,
          domain.state,
          domain.reason,
          domain.primary ? 1 : 0,
          JSON.stringify(domain.checks),
          domain.createdAt,
          domain.verifiedAt,
          domain.checkedAt,
          domain.nextCheckAt,
          domain.checkError,
          domain.checkFailures,
          domain.wrongSince,
        ],
      );
      if (!row) return undefined;
      changed();
      return domain;
    },
    async get(hostname) {
      const [row] = await sql.all(`SELECT ${COLUMNS} FROM custom_domains d WHERE d.hostname = $1`, [
        hostname,
      ]);
      return row && toDomain(row);
    },
    listForProject: async (projectId) =>
      (
        await sql.all(
          `SELECT ${COLUMNS} FROM custom_domains d WHERE d.project_id = $1 ORDER BY d.created_at, d.hostname`,
          [projectId],
        )
      ).map(toDomain),
    async recordCheck(hostname, result) {
      const stored = await write(
        `UPDATE custom_domains SET state = $2, reason = $3, checks = $4, checked_at = $5, next_check_at = $6,
           verified_at = coalesce(verified_at, $7), wrong_since = $8, check_error = NULL, check_failures = 0
         WHERE hostname = $1`,
        [
          hostname,
          result.state,
          result.reason,
          JSON.stringify(result.checks),
          result.checkedAt,
          result.nextCheckAt,
          result.verifiedAt,
          result.wrongSince,
        ],
      );
      if (stored && result.state === 'verified') {
        try {
          await write(
            `UPDATE custom_domains SET is_primary = TRUE WHERE hostname = $1 AND NOT EXISTS
               (SELECT 1 FROM custom_domains o WHERE o.project_id = custom_domains.project_id AND o.is_primary)`,
            [hostname],
          );
        } catch {
          // Another domain of the project became primary at the same moment: it keeps the place.
        }
      }
      return stored;
    },
    recordUnanswered: (hostname, check) =>
      write(
        'UPDATE custom_domains SET check_error = $2, check_failures = $3, next_check_at = $4 WHERE hostname = $1',
        [hostname, check.checkError, check.checkFailures, check.nextCheckAt],
      ),
    claimDue: async (now, leaseUntil, limit) =>
      (
        await sql.all(
          `UPDATE custom_domains SET next_check_at = $2
           WHERE hostname IN (SELECT hostname FROM custom_domains WHERE next_check_at <= $1 ORDER BY next_check_at LIMIT $3)
             AND next_check_at <= $1
           RETURNING ${COLUMNS.replaceAll('d.', '')}`,
          [now, leaseUntil, limit],
        )
      ).map(toDomain),
    async setPrimary(projectId, hostname) {
      const target = await sql.all(
        "SELECT 1 AS one FROM custom_domains WHERE project_id = $1 AND hostname = $2 AND state = 'verified'",
        [projectId, hostname],
      );
      if (target.length === 0) return false;
      await write(
        'UPDATE custom_domains SET is_primary = FALSE WHERE project_id = $1 AND hostname <> $2 AND is_primary',
        [projectId, hostname],
      );
      await write('UPDATE custom_domains SET is_primary = TRUE WHERE project_id = $1 AND hostname = $2', [
        projectId,
        hostname,
      ]);
      return true;
    },
    async remove(projectId, hostname, removedAt) {
      // The name is remembered first: a failure between the two statements leaves it of record twice.
      await sql.run(
        `INSERT INTO removed_domains (hostname, removed_at)
         SELECT hostname, $3 FROM custom_domains WHERE project_id = $1 AND hostname = $2
         ON CONFLICT (hostname) DO UPDATE SET removed_at = excluded.removed_at`,
        [projectId, hostname, removedAt],
      );
      if (
        !(await write('DELETE FROM custom_domains WHERE project_id = $1 AND hostname = $2', [
          projectId,
          hostname,
        ]))
      )
        return false;
      try {
        await write(
          `UPDATE custom_domains SET is_primary = TRUE
           WHERE hostname = (SELECT hostname FROM custom_domains WHERE project_id = $1 AND state = 'verified'
                             ORDER BY created_at, hostname LIMIT 1)
             AND NOT EXISTS (SELECT 1 FROM custom_domains o WHERE o.project_id = $1 AND o.is_primary)`,
          [projectId],
        );
      } catch {
        // Another domain of the project became primary at the same moment: it keeps the place.
      }
      return true;
    },
    async primaryOf(projectId) {
      const [row] = await sql.all(
        `SELECT hostname FROM custom_domains WHERE project_id = $1 AND state = 'verified'
         ORDER BY is_primary DESC, created_at, hostname LIMIT 1`,
        [projectId],
      );
      return row?.hostname as string | undefined;
    },
    async isOfRecord(hostname) {
      const rows = await sql.all(
        `SELECT 1 AS one FROM custom_domains WHERE hostname = $1
         UNION ALL SELECT 1 AS one FROM removed_domains WHERE hostname = $1`,
        [hostname],
      );
      return rows.length > 0;
    },
    listOfRecord: async () =>
      (await sql.all('SELECT hostname FROM custom_domains UNION SELECT hostname FROM removed_domains')).map(
        (row) => row.hostname as string,
      ),
    async recordResolvers(servers, at) {
      await sql.run(
        `INSERT INTO domain_resolvers (id, servers, recorded_at) VALUES (1, $1, $2)
         ON CONFLICT (id) DO UPDATE SET servers = excluded.servers, recorded_at = excluded.recorded_at`,
        [JSON.stringify(servers), at],
      );
    },
    async resolvers() {
      const [row] = await sql.all('SELECT servers, recorded_at FROM domain_resolvers WHERE id = 1');
      return (
        row && { servers: JSON.parse(row.servers as string) as string[], recordedAt: Number(row.recorded_at) }
      );
    },
    listServed: async () =>
      (
        await sql.all(
          `SELECT d.hostname FROM custom_domains d JOIN projects p ON p.id = d.project_id
           WHERE d.state = 'verified' AND p.plan IN ${PAID}`,
        )
      ).map((row) => row.hostname as string),
  };
}
