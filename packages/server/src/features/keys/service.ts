import { generateKey, type KeyEnvironment } from '../../auth/keys.ts';
import { limitsFor } from '../../ratelimit/plans.ts';
import type { Project } from '../projects/project-repository.ts';
import type { ApiKeyRecord, Plan } from '../../storage/records.ts';
import { newestChangeOf } from '../../storage/change-records.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { createAudited } from '../shared/audited.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, type Problem, Refusal, refused } from '../shared/outcome.ts';
import { labelProblem } from '../shared/text-rules.ts';
import { keyStatus } from './state.ts';
import { KEYS_PER_PLAN } from './caps.ts';
import { keyRecords, type NewKey } from './key-repository.ts';

/** How long a rolled key keeps working by default, and at most (Stripe's choices: up to 7 days). */
export const ROLL_OVERLAP = { defaultSeconds: 86_400, maxSeconds: 7 * 86_400 } as const;
/** The furthest expiry a key may be given. */
const MAX_KEY_LIFETIME_MS = 10 * 365 * 86_400_000;
export const KEY_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

export interface NewKeyInput {
  label?: string | null;
  /** Epoch ms; absent or null: the key never expires. */
  expiresAt?: number | null;
  /** The key's own limits, at most its project's. */
  perMinute?: number | null;
  perDay?: number | null;
}

/** A change of a key: the fields given change (null clears), the others stay. */
export interface KeyChange {
  label?: string | null;
  perMinute?: number | null;
  perDay?: number | null;
}

export interface CreatedKey {
  key: ApiKeyRecord;
  /** Shown once, never stored. */
  secret: string;
}

/** A rolled key: the new one with its secret, and the old one with its new expiry. */
export type RolledKey = CreatedKey & { previous: ApiKeyRecord };

/** How people name a key in the audit trail: its label and the start of its secret. */
export const keyTarget = (key: { label: string | null; prefix?: string | null; id: string }): string =>
  `${key.label ? `“${key.label}”` : 'no label'} (${key.prefix ?? key.id}…)`;

export interface KeyServiceDeps {
  storage: Store;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  /**
   * Resolves once a committed change of the feed has been applied here and its notification has come
   * back (ChangeFeed.echo): a revocation is answered only then. Absent on the command line.
   */
  echo?: (seq: number) => Promise<boolean>;
}

/**
 * API keys: every door (dashboard, management API, command line) creates, lists, revokes and rolls
 * keys here, and nowhere else. Each operation validates its input, checks the actor's role once
 * (authorise), and writes the change with its audit record in one transaction.
 */
export function createKeyService(deps: KeyServiceDeps) {
  const { storage, clock, keyEnvironment } = deps;

  const audited = createAudited(storage, clock);

  const newKey = (
    project: Project | undefined,
    limits: { plan: Plan; perMinute: number | null; perDay: number | null },
    input: NewKeyInput,
  ): { record: NewKey; secret: string } => {
    const { secret, id, digest, prefix } = generateKey(keyEnvironment);
    const label = input.label?.trim() || null;
    return {
      secret,
      record: {
        id,
        digest,
        prefix,
        projectId: project?.id ?? null,
        plan: limits.plan,
        perMinute: limits.perMinute,
        perDay: limits.perDay,
        label,
        environment: keyEnvironment,
        createdAt: clock.now(),
        expiresAt: input.expiresAt ?? null,
        ownPerMinute: input.perMinute ?? null,
        ownPerDay: input.perDay ?? null,
      },
    };
  };

  /** The problem with a new key's label, expiry or own limits, if any. */
  const inputProblem = (input: NewKeyInput, project: Project | undefined): Problem | undefined => {
    const label = input.label?.trim() ?? '';
    const labelIssue = labelProblem(label, 'label');
    if (labelIssue) return { code: 'invalid_body', message: labelIssue, param: 'label' };
    const now = clock.now();
    if (input.expiresAt !== undefined && input.expiresAt !== null) {
      if (input.expiresAt <= now)
        return { code: 'invalid_body', message: 'expiresAt must be in the future', param: 'expiresAt' };
      if (input.expiresAt > now + MAX_KEY_LIFETIME_MS) {
        return { code: 'invalid_body', message: 'expiresAt must be within ten years', param: 'expiresAt' };
      }
    }
    const ceiling = project ? limitsFor(project) : undefined;
    for (const [name, value, max] of [
      ['perMinute', input.perMinute, ceiling?.perMinute],
      ['perDay', input.perDay, ceiling?.perDay],
    ] as const) {
      if (value === undefined || value === null || max === undefined) continue;
      if (value > max) {
        return {
          code: 'invalid_body',
          message: `${name} must be at most the project's ${max}: a key's own limits only lower its plan's`,
          param: name,
        };
      }
    }
    return undefined;
  };

  /** A key of the project may be changed while it works: not once revoked or expired. */
  const changeable = (key: ApiKeyRecord, keyId: string): void => {
    const state = keyStatus(key, clock.now()).state;
    if (state === 'revoked' || state === 'expired') {
      throw new Refusal({
        code: 'conflict',
        message: `${keyId} is ${state}: it cannot be changed`,
        param: 'keyId',
      });
    }
  };

  /** On PostgreSQL the project's row is locked first: one project's key creations count one at a time. */
  const lockProject = async (sql: SqlExecutor, projectId: string) => {
    if (storage.kind === 'postgres')
      await sql.all('SELECT 1 AS one FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
  };

  const projectKey = async (sql: SqlExecutor, project: Project, keyId: string) => {
    const key = await keyRecords(sql).get(keyId);
    if (!key || key.projectId !== project.id)
      throw new Refusal({ code: 'not_found', message: `no key ${keyId} in ${project.slug}`, param: 'keyId' });
    return key;
  };

  return {
    /** A key of the project, held to its plan (and to its own lower limits, when given). */
    /** `alongside` writes in the same transaction (the management API's Idempotency-Key answer). */
    async create(
      actor: Actor,
      slug: string,
      input: NewKeyInput,
      alongside?: (sql: SqlExecutor, created: CreatedKey) => Promise<void>,
    ): Promise<Outcome<CreatedKey>> {
      const allowed = await authorise(storage.projects, actor, slug, 'developer', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const problem = inputProblem(input, project);
      if (problem) return { ok: false, problem };
      const { record, secret } = newKey(project, project, input);
      return audited(actor, project.id, async (sql) => {
        await lockProject(sql, project.id);
        const cap = KEYS_PER_PLAN[project.plan];
        if ((await keyRecords(sql).countInUse(project.id, clock.now())) >= cap) {
          throw new Refusal({
            code: 'key_limit_reached',
            message: `the ${project.plan} plan allows ${cap.toLocaleString('en-US')} keys in use per project; revoke one first`,
          });
        }
        await keyRecords(sql).insert(record);
        const value = { key: (await keyRecords(sql).get(record.id))!, secret };
        await alongside?.(sql, value);
        return {
          value,
          action: 'key_created',
          target: keyTarget(record),
        };
      });
    },

    /** A standalone key with its own plan (the operator's `keys create --plan`): no project, no trail. */
    async createStandalone(
      limits: { plan: Plan; perMinute: number | null; perDay: number | null },
      input: NewKeyInput,
    ): Promise<Outcome<CreatedKey>> {
      const problem = inputProblem(input, undefined);
      if (problem) return { ok: false, problem };
      const { record, secret } = newKey(undefined, limits, input);
      const key = await storage.transaction(async (sql) => {
        await keyRecords(sql).insert(record);
        return (await keyRecords(sql).get(record.id))!;
      });
      return done({ key, secret });
    },

    async list(
      actor: Actor,
      slug: string,
      query: { limit?: number; cursor?: string },
    ): Promise<Outcome<Page<ApiKeyRecord>>> {
      const allowed = await authorise(storage.projects, actor, slug, 'viewer', false);
      if (!allowed.ok) return allowed;
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after)
        return refused('invalid_cursor', 'the cursor was altered', 'cursor');
      const limit = query.limit ?? KEY_PAGE.defaultLimit;
      const rows = await keyRecords(storage.sql).page(allowed.value.project.id, after, limit + 1);
      return done(pageOf(rows, limit, (key) => ({ at: key.createdAt, id: key.id })));
    },

    /** One key of the project, whatever its state. */
    async get(actor: Actor, slug: string, keyId: string): Promise<Outcome<ApiKeyRecord>> {
      const allowed = await authorise(storage.projects, actor, slug, 'viewer', false);
      if (!allowed.ok) return allowed;
      const key = await keyRecords(storage.sql).get(keyId);
      if (!key || key.projectId !== allowed.value.project.id)
        return refused('not_found', `no key ${keyId} in ${slug}`, 'keyId');
      return done(key);
    },

    /** Changes a working key's label and own limits (the fields given); running servers apply it at once. */
    async update(
      actor: Actor,
      slug: string,
      keyId: string,
      change: KeyChange,
    ): Promise<Outcome<ApiKeyRecord>> {
      const allowed = await authorise(storage.projects, actor, slug, 'developer', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const problem = inputProblem(change, project);
      if (problem) return { ok: false, problem };
      return audited(actor, project.id, async (sql) => {
        const key = await projectKey(sql, project, keyId);
        changeable(key, keyId);
        if (change.label === undefined && change.perMinute === undefined && change.perDay === undefined)
          return { value: key, action: null, target: null };
        const records = keyRecords(sql);
        const said: string[] = [];
        if (change.label !== undefined) {
          const label = change.label?.trim() || null;
          await records.setLabel(key.id, label);
          said.push(`label ${label === null ? 'cleared' : `“${label}”`}`);
        }
        if (change.perMinute !== undefined || change.perDay !== undefined) {
          const perMinute = change.perMinute === undefined ? key.ownPerMinute : change.perMinute;
          const perDay = change.perDay === undefined ? key.ownPerDay : change.perDay;
          await records.setOwnLimits(key.id, perMinute, perDay);
          said.push(`own limits ${perMinute ?? 'none'}/min, ${perDay ?? 'none'}/day`);
        }
        return {
          value: (await records.get(key.id))!,
          action: 'key_updated',
          target: `${keyTarget(key)}: ${said.join(', ')}`,
        };
      });
    },

    /**
     * Lifts the key's ban (owners only): recorded with its time, which every instance's limiter honours
     * from the key's next request (a ban begun before it is dropped), and in the trail. A key not banned
     * is answered as it is, with nothing recorded.
     */
    async unban(actor: Actor, slug: string, keyId: string): Promise<Outcome<ApiKeyRecord>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const lifted = await audited(actor, project.id, async (sql) => {
        const key = await projectKey(sql, project, keyId);
        if (key.revokedAt !== null)
          throw new Refusal({
            code: 'conflict',
            message: `${keyId} is revoked: it stays so`,
            param: 'keyId',
          });
        if (keyStatus(key, clock.now()).state !== 'banned') {
          return { value: { key, seq: undefined }, action: null, target: null };
        }
        await keyRecords(sql).unban(key.id, clock.now());
        const value = {
          key: (await keyRecords(sql).get(key.id))!,
          seq: await newestChangeOf(sql, { keyId: key.id }),
        };
        return {
          value,
          action: 'key_unbanned',
          target: `${keyTarget(key)}, banned until ${new Date(key.bannedUntil!).toISOString()}`,
        };
      });
      if (!lifted.ok) return lifted;
      // Answered once every instance dropped the banned record it may hold, as a revocation is.
      if (lifted.value.seq !== undefined) await deps.echo?.(lifted.value.seq);
      return done(lifted.value.key);
    },

    /**
     * The key stops working at once, here and, from its next request, on every instance whose
     * notification arrived (answered once its own came back: docs/reliability.md); revoking a revoked
     * key is 404, like one that never existed.
     */
    async revoke(actor: Actor, slug: string, keyId: string): Promise<Outcome<ApiKeyRecord>> {
      const allowed = await authorise(storage.projects, actor, slug, 'developer', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const revoked = await audited(actor, project.id, async (sql) => {
        const key = await projectKey(sql, project, keyId);
        if (!(await keyRecords(sql).revoke(key.id, project.id, clock.now()))) {
          throw new Refusal({ code: 'not_found', message: `${keyId} is already revoked`, param: 'keyId' });
        }
        const value = {
          key: (await keyRecords(sql).get(key.id))!,
          seq: await newestChangeOf(sql, { keyId: key.id }),
        };
        return { value, action: 'key_revoked', target: keyTarget(key) };
      });
      if (!revoked.ok) return revoked;
      if (revoked.value.seq !== undefined) await deps.echo?.(revoked.value.seq);
      return done(revoked.value.key);
    },

    /**
     * A new key with the old one's label, expiry and own limits; the old one keeps working for
     * `overlapSeconds` more (never longer than it would have), then expires. A key is rolled once:
     * the second of two concurrent rolls, or a roll of a revoked or expired key, is 409 conflict.
     * `alongside` writes in the same transaction (the management API's Idempotency-Key answer).
     */
    async roll(
      actor: Actor,
      slug: string,
      keyId: string,
      overlapSeconds: number = ROLL_OVERLAP.defaultSeconds,
      alongside?: (sql: SqlExecutor, rolled: RolledKey) => Promise<void>,
    ): Promise<Outcome<RolledKey>> {
      const allowed = await authorise(storage.projects, actor, slug, 'developer', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      return audited(actor, project.id, async (sql) => {
        const old = await projectKey(sql, project, keyId);
        const { record, secret } = newKey(project, project, {
          label: old.label,
          expiresAt: old.expiresAt,
          perMinute: old.ownPerMinute ?? null,
          perDay: old.ownPerDay ?? null,
        });
        const now = clock.now();
        if (!(await keyRecords(sql).roll(old.id, project.id, record.id, now, now + overlapSeconds * 1000))) {
          throw new Refusal({
            code: 'conflict',
            message: `${keyId} cannot be rolled: it was already rolled${old.rolledTo ? ` to ${old.rolledTo}` : ''}, revoked or has expired`,
            param: 'keyId',
          });
        }
        await keyRecords(sql).insert(record);
        const key = (await keyRecords(sql).get(record.id))!;
        const previous = (await keyRecords(sql).get(old.id))!;
        await alongside?.(sql, { key, secret, previous });
        return {
          value: { key, secret, previous },
          action: 'key_rolled',
          target: `${keyTarget(old)} → ${keyTarget(record)}`,
        };
      });
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
