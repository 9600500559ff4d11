import { createInvitationRecords, type InvitationRecords } from '../members/invitation-records.ts';
import type { MemberRecords, Role } from '../members/member-records.ts';
import { createMemberRecords, memberRecords } from '../members/repository.ts';
import type { Plan } from '../../storage/records.ts';
import type { Row } from '../../storage/rows.ts';
import type { SqlExecutor, Transactions } from '../../storage/sql-executor.ts';
import { createTwoFactorRecords, type TwoFactorRecords } from '../identity/two-factor-records.ts';

/** A project: it owns API keys (its plan decides their limits) and a published docs site. */
export interface Project {
  id: string;
  /** URL-safe and unique: `[a-z0-9-]{1,40}`; the docs site's default host is `<slug>.<site domain>`. */
  slug: string;
  name: string;
  plan: Plan;
  /** Custom limits (enterprise); null means "the plan's default". */
  perMinute: number | null;
  perDay: number | null;
  createdAt: number;
}

export type NewProject = Project;

export interface ProjectRepository
  extends MemberRecords, InvitationRecords, Pick<TwoFactorRecords, 'requiringTwoFactor'> {
  /** The project, or undefined when its slug is taken. */
  create(project: NewProject): Promise<Project | undefined>;
  bySlug(slug: string): Promise<Project | undefined>;
  byId(id: string): Promise<Project | undefined>;
  list(): Promise<Project[]>;
  /** At most `limit` projects by slug after `afterSlug`: an index range, however many there are. */
  listPage(afterSlug: string | undefined, limit: number): Promise<Project[]>;
  /** The projects an account is a member of, by name. */
  listForAccount(accountId: string): Promise<Project[]>;
  /** Returns false when no such project exists. */
  setPlan(slug: string, plan: Plan, perMinute: number | null, perDay: number | null): Promise<boolean>;
  rename(slug: string, name: string): Promise<boolean>;
  /** Whether the account is a member of the project. */
  isMember(accountId: string, projectId: string): Promise<boolean>;
  /** Idempotent: adding a member twice changes nothing (not even the role). Owner unless told. */
  addMember(accountId: string, projectId: string, at: number, role?: Role): Promise<void>;
}

const COLUMNS = 'p.id, p.slug, p.name, p.plan, p.per_minute, p.per_day, p.created_at';

const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function toProject(row: Row): Project {
  return {
    id: row.id as string,
    slug: row.slug as string,
    name: row.name as string,
    plan: row.plan as Plan,
    perMinute: nullableNumber(row.per_minute),
    perDay: nullableNumber(row.per_day),
    createdAt: Number(row.created_at),
  };
}

/**
 * The projects table's statements that need no transaction of their own: what the projects service
 * runs on its transaction's executor (the transaction tells the caches on commit), and what the
 * storage-bound repository below runs on the storage's, telling `changed` of every write.
 */
function projectStatements(sql: SqlExecutor, changed: () => void) {
  const one = async (query: string, params: unknown[]) => {
    const [row] = await sql.all(query, params);
    return row && toProject(row);
  };
  const write = async (query: string, params: unknown[]) => {
    const count = await sql.run(query, params);
    if (count > 0) changed();
    return count > 0;
  };
  return {
    /** The project, or undefined when its slug is taken. */
    async create(project: NewProject): Promise<Project | undefined> {
      const [row] = await sql.all(
        `INSERT INTO projects (id, slug, name, plan, per_minute, per_day, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING
         RETURNING id, slug, name, plan, per_minute, per_day, created_at`,
        [
          project.id,
          project.slug,
          project.name,
          project.plan,
          project.perMinute,
          project.perDay,
          project.createdAt,
        ],
      );
      if (row) changed();
      return row && toProject(row);
    },
    bySlug: (slug: string) => one(`SELECT ${COLUMNS} FROM projects p WHERE p.slug = $1`, [slug]),
    byId: (id: string) => one(`SELECT ${COLUMNS} FROM projects p WHERE p.id = $1`, [id]),
    setPlan: (slug: string, plan: Plan, perMinute: number | null, perDay: number | null) =>
      write('UPDATE projects SET plan = $2, per_minute = $3, per_day = $4 WHERE slug = $1', [
        slug,
        plan,
        perMinute,
        perDay,
      ]),
    rename: (slug: string, name: string) =>
      write('UPDATE projects SET name = $2 WHERE slug = $1', [slug, name]),
  };
}

/** The projects service's writes, on its transaction's executor, and the two-factor requirement's. */
export function projectRecords(sql: SqlExecutor) {
  const { create, setPlan, bySlug, rename } = projectStatements(sql, () => {});
  return {
    create,
    setPlan,
    bySlug,
    rename,
    setTwoFactorRequired: createTwoFactorRecords(sql).setTwoFactorRequired,
  };
}

/** One implementation for SQLite and PostgreSQL; `changed` is told of every write (caches listen). */
export function createProjectRepository(
  sql: SqlExecutor,
  transaction: Transactions['transaction'],
  kind: 'sqlite' | 'postgres',
  changed: () => void,
): ProjectRepository {
  return {
    ...createMemberRecords(sql, transaction, kind),
    ...createInvitationRecords(sql),
    requiringTwoFactor: createTwoFactorRecords(sql).requiringTwoFactor,
    ...projectStatements(sql, changed),
    list: async () => (await sql.all(`SELECT ${COLUMNS} FROM projects p ORDER BY p.slug`)).map(toProject),
    listPage: async (afterSlug, limit) =>
      (
        await sql.all(`SELECT ${COLUMNS} FROM projects p WHERE p.slug > $1 ORDER BY p.slug LIMIT $2`, [
          afterSlug ?? '',
          limit,
        ])
      ).map(toProject),
    listForAccount: async (accountId) =>
      (
        await sql.all(
          `SELECT ${COLUMNS} FROM projects p JOIN memberships m ON m.project_id = p.id
           WHERE m.account_id = $1 ORDER BY p.name, p.slug`,
          [accountId],
        )
      ).map(toProject),
    async isMember(accountId, projectId) {
      const rows = await sql.all(
        'SELECT 1 AS one FROM memberships WHERE account_id = $1 AND project_id = $2',
        [accountId, projectId],
      );
      return rows.length > 0;
    },
    async addMember(accountId, projectId, at, role = 'owner') {
      await memberRecords(sql, kind).add(accountId, projectId, at, role);
    },
  };
}
