import type { RecordCheck, VerificationState } from './check-records.ts';
import type { Row } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

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
  /** A claim on a name another project held when it was added: its TXT ownership record must be seen. */
  proofTxt: boolean;
  /** When it failed; a failed domain is released (deleted) 7 days later. */
  failedAt: number | null;
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
  /** With a verification: why another project's verified claim on the name ends. */
  endedReason?: string;
}

/** Where a page of a project's domains starts: after this domain, in the order they were added. */
export interface DomainPosition {
  at: number;
  hostname: string;
}

export interface DomainRepository {
  /**
   * The domain, or undefined when this project already has the hostname. Other projects may claim the
   * same name: each claim is a row of its own, and at most one per name is ever verified (served).
   */
  add(domain: CustomDomain): Promise<CustomDomain | undefined>;
  /** The project's claim on the name; without a project, the served claim, else the oldest. */
  get(hostname: string, projectId?: string): Promise<CustomDomain | undefined>;
  listForProject(projectId: string): Promise<CustomDomain[]>;
  /** How many domains the project has, in any state (the plan caps it). */
  countForProject(projectId: string): Promise<number>;
  /** Whether a project other than `projectId` claims the name, in any state. */
  claimedByOthers(hostname: string, projectId: string): Promise<boolean>;
  /**
   * Stores a check (of the project's claim; without a project, of the name's one row); a first
   * verification makes the domain its project's primary if it has none. A verification ends another
   * project's verified claim on the name first (`endedReason`, kept on its card): proof settles it.
   */
  recordCheck(
    hostname: string,
    result: CheckResult,
    projectId?: string,
    /** Store only if the domain is still in the state the check started from (else false, nothing written). */
    expectedState?: CustomDomain['state'],
  ): Promise<boolean>;
  /** Stores a check that got no DNS answer, leaving what the last answer decided as it is. */
  recordUnanswered(hostname: string, check: UnansweredCheck, projectId?: string): Promise<boolean>;
  /** Deletes the domains that failed at or before `failedBefore` (remembered as removed); how many. */
  releaseFailed(failedBefore: number, now: number): Promise<number>;
  /**
   * Domains due for a check (next_check_at <= now), at most `limit`, each claimed by pushing its next
   * check to `leaseUntil` in the same statement, so instances sharing the database never check one twice.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<CustomDomain[]>;
  /** Makes a verified domain the project's primary; false when it is not the project's or not verified. */
  setPrimary(projectId: string, hostname: string): Promise<boolean>;
  /**
   * Deletes the domain, remembering that the name was one; when it was the primary,
   * the project's oldest verified domain takes its place. False when it is not the project's.
   */
  remove(projectId: string, hostname: string, removedAt: number): Promise<boolean>;
  /** Whether the name was a custom domain once and was removed (or released after failing). */
  wasRemoved(hostname: string): Promise<boolean>;
  /** Verified domains of projects on a paid plan, the ones that are served. */
  listServed(): Promise<string[]>;
  /**
   * The address every other host of the project redirects to: its primary domain while that is
   * verified, else (its records are gone for now) its oldest verified domain; none without one.
   */
  primaryOf(projectId: string): Promise<string | undefined>;
}

const DOMAIN_COLUMNS =
  'd.hostname, d.project_id, d.apex, d.token, d.state, d.reason, d.is_primary, d.checks, d.created_at, d.verified_at, d.checked_at, d.next_check_at, d.check_error, d.check_failures, d.wrong_since, d.proof_txt, d.failed_at';
const PAID = "('pro', 'business', 'enterprise')";

/** The WHERE clause for one claim, its parameters numbered from `first`. */
const rowOf = (hostname: string, projectId: string | undefined, first: number): [string, unknown[]] =>
  projectId === undefined
    ? [`hostname = $${first}`, [hostname]]
    : [`hostname = $${first} AND project_id = $${first + 1}`, [hostname, projectId]];

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
    proofTxt: bool(row.proof_txt),
    failedAt: nullableNumber(row.failed_at),
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
        `INSERT INTO custom_domains (hostname, project_id, apex, token, state, reason, is_primary, checks, created_at, verified_at, checked_at, next_check_at, check_error, check_failures, wrong_since, proof_txt, failed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING RETURNING hostname`,
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
          domain.proofTxt ? 1 : 0,
          domain.failedAt,
        ],
      );
      if (!row) return undefined;
      changed();
      return domain;
    },
    async get(hostname, projectId) {
      const [row] = await sql.all(
        projectId === undefined
          ? `SELECT ${DOMAIN_COLUMNS} FROM custom_domains d WHERE d.hostname = $1
             ORDER BY d.state = 'verified' DESC, d.created_at, d.project_id LIMIT 1`
          : `SELECT ${DOMAIN_COLUMNS} FROM custom_domains d WHERE d.hostname = $1 AND d.project_id = $2`,
        projectId === undefined ? [hostname] : [hostname, projectId],
      );
      return row && toDomain(row);
    },
    async countForProject(projectId) {
      const [row] = await sql.all('SELECT count(*) AS n FROM custom_domains WHERE project_id = $1', [
        projectId,
      ]);
      return Number(row!.n);
    },
    async claimedByOthers(hostname, projectId) {
      const rows = await sql.all(
        'SELECT 1 AS one FROM custom_domains WHERE hostname = $1 AND project_id <> $2 LIMIT 1',
        [hostname, projectId],
      );
      return rows.length > 0;
    },
    listForProject: async (projectId) =>
      (
        await sql.all(
          `SELECT ${DOMAIN_COLUMNS} FROM custom_domains d WHERE d.project_id = $1 ORDER BY d.created_at, d.hostname`,
          [projectId],
        )
      ).map(toDomain),
    async recordCheck(hostname, result, projectId, expectedState) {
      if (expectedState !== undefined) {
        const [current, currentParams] = rowOf(hostname, projectId, 1);
        const [row] = await sql.all(`SELECT state FROM custom_domains WHERE ${current}`, currentParams);
        if (row?.state !== expectedState) return false;
      }
      const [which, whichParams] = rowOf(hostname, projectId, 8);
      if (result.state === 'verified' && projectId !== undefined) {
        // Proof settles a contested name: another project's verified claim ends before this one is served.
        await write(
          `UPDATE custom_domains SET state = 'failed', reason = $3, is_primary = FALSE, proof_txt = TRUE,
             failed_at = $4, wrong_since = NULL, next_check_at = $5
           WHERE hostname = $1 AND project_id <> $2 AND state = 'verified'`,
          [hostname, projectId, result.endedReason ?? null, result.checkedAt, Number.MAX_SAFE_INTEGER],
        );
      }
      const stored = await write(
        `UPDATE custom_domains SET state = $1, reason = $2, checks = $3, checked_at = $4, next_check_at = $5,
           verified_at = coalesce(verified_at, $6), wrong_since = $7, check_error = NULL, check_failures = 0,
           failed_at = CASE WHEN $1 = 'failed' THEN coalesce(failed_at, $4) END
         WHERE ${which}`,
        [
          result.state,
          result.reason,
          JSON.stringify(result.checks),
          result.checkedAt,
          result.nextCheckAt,
          result.verifiedAt,
          result.wrongSince,
          ...whichParams,
        ],
      );
      if (stored && result.state === 'verified') {
        try {
          const [one, oneParams] = rowOf(hostname, projectId, 1);
          await write(
            `UPDATE custom_domains SET is_primary = TRUE WHERE ${one} AND NOT EXISTS
               (SELECT 1 FROM custom_domains o WHERE o.project_id = custom_domains.project_id AND o.is_primary)`,
            oneParams,
          );
        } catch {
          // Another domain of the project became primary at the same moment: it keeps the place.
        }
      }
      return stored;
    },
    recordUnanswered(hostname, check, projectId) {
      const [which, whichParams] = rowOf(hostname, projectId, 4);
      return write(
        `UPDATE custom_domains SET check_error = $1, check_failures = $2, next_check_at = $3 WHERE ${which}`,
        [check.checkError, check.checkFailures, check.nextCheckAt, ...whichParams],
      );
    },
    async releaseFailed(failedBefore, now) {
      await sql.run(
        `INSERT INTO removed_domains (hostname, removed_at)
         SELECT DISTINCT hostname, CAST($1 AS BIGINT) FROM custom_domains WHERE state = 'failed' AND failed_at <= $2
         ON CONFLICT (hostname) DO UPDATE SET removed_at = excluded.removed_at`,
        [now, failedBefore],
      );
      const released = await sql.run(
        "DELETE FROM custom_domains WHERE state = 'failed' AND failed_at <= $1",
        [failedBefore],
      );
      if (released > 0) changed();
      return released;
    },
    claimDue: async (now, leaseUntil, limit) =>
      (
        await sql.all(
          `UPDATE custom_domains SET next_check_at = $2
           WHERE (hostname, project_id) IN
             (SELECT hostname, project_id FROM custom_domains WHERE next_check_at <= $1 ORDER BY next_check_at LIMIT $3)
             AND next_check_at <= $1
           RETURNING ${DOMAIN_COLUMNS.replaceAll('d.', '')}`,
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
    async wasRemoved(hostname) {
      const rows = await sql.all('SELECT 1 AS one FROM removed_domains WHERE hostname = $1', [hostname]);
      return rows.length > 0;
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
