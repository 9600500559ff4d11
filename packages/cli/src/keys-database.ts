import type { ApiKeyRecord, Plan } from '@petstore/server/storage/records.ts';
import { createKeyService } from '@petstore/server/features/keys/service.ts';
import { limitsFor } from '@petstore/server/ratelimit/plans.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import type { Project } from '@petstore/server/features/projects/project-repository.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { CliError, EXIT, NotFoundError, refusalError, UsageError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { keyStatus } from '@petstore/server/features/keys/state.ts';
import { ownLimitsText, printCreatedKey, printRolledKey } from './keys-output.ts';
import { liftStoreBan } from './store-ban.ts';
import { formatInstant } from './table.ts';

/** A standalone key's plan (`--plan`, and enterprise limits). */
export interface PlanChoice {
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
}

/** A project key's own lower limits (`--per-minute`, `--per-day`); null where not given. */
export interface OwnLimits {
  ownPerMinute: number | null;
  ownPerDay: number | null;
}

export interface NewKeyChoice {
  /** `--plan` for a standalone key; a project key takes its project's. */
  limits: PlanChoice | undefined;
  /** A project key's own lower limits. */
  own: OwnLimits | undefined;
  project: string | undefined;
  label: string | null;
  expiresInDays: number | undefined;
}

/** Own limits above the project's would never bind: refused, naming the project's. */
export function checkOwnLimits(
  own: OwnLimits,
  project: Pick<Project, 'plan' | 'perMinute' | 'perDay' | 'slug'>,
): void {
  const plan = limitsFor(project);
  for (const [value, limit, name] of [
    [own.ownPerMinute, plan.perMinute, 'per-minute'],
    [own.ownPerDay, plan.perDay, 'per-day'],
  ] as const) {
    if (value !== null && value > limit) {
      throw new UsageError(
        `--${name} ${value} is above project ${project.slug}'s limit (${limit}): a key's own limits are lower than its project's`,
      );
    }
  }
}

async function projectOf(storage: Store, slug: string): Promise<Project> {
  const project = await storage.projects.bySlug(slug);
  if (!project) throw new NotFoundError(`no project with slug ${slug}; "petstore projects list" shows them`);
  return project;
}

const keyService = (storage: Store, key: Pick<ApiKeyRecord, 'environment'>) =>
  createKeyService({ storage, clock: systemClock, keyEnvironment: key.environment });

/** Creates the key through the keys service, as the dashboard and the management API do. */
export async function createKey(
  io: CliIo,
  storage: Store,
  choice: NewKeyChoice,
  environment: 'live' | 'test',
  json: boolean,
): Promise<void> {
  const { expiresInDays, label } = choice;
  const project = choice.project === undefined ? undefined : await projectOf(storage, choice.project);
  if (project && choice.own) checkOwnLimits(choice.own, project);
  const own = project ? choice.own : undefined;
  const limits = project
    ? { plan: project.plan, perMinute: project.perMinute, perDay: project.perDay }
    : choice.limits!;
  const keys = keyService(storage, { environment });
  const expiresAt = expiresInDays ? systemClock.now() + expiresInDays * 86_400_000 : null;
  const outcome = project
    ? await keys.create(OPERATOR, project.slug, {
        label,
        expiresAt,
        perMinute: own?.ownPerMinute ?? null,
        perDay: own?.ownPerDay ?? null,
      })
    : await keys.createStandalone(limits, { label, expiresAt });
  if (!outcome.ok) {
    const { problem } = outcome;
    throw refusalError({ ...problem, message: `--${problem.param ?? 'label'}: ${problem.message}` });
  }
  const { key, secret } = outcome.value;
  printCreatedKey(
    io,
    {
      id: key.id,
      project: project?.slug ?? null,
      environment,
      ...limits,
      ...own,
      label,
      expiresAt,
      key: secret,
    },
    json,
  );
}

/** The key an id names: an unknown one is status 3. */
async function keyNamed(storage: Store, id: string): Promise<ApiKeyRecord> {
  const key = await storage.keys.get(id);
  if (!key) throw new NotFoundError(`no key with id ${id}; "petstore keys list" shows them`);
  return key;
}

/** The project a key action works in: `--project` (which must hold the key), else the key's own. */
async function projectOfKey(
  storage: Store,
  key: ApiKeyRecord,
  slug: string | undefined,
): Promise<Project | undefined> {
  if (slug !== undefined) return projectOf(storage, slug);
  return key.projectId === null ? undefined : storage.projects.byId(key.projectId);
}

/**
 * `keys revoke`: a project's key through the keys service, which answers as the management API does (a
 * key revoked already is not found, status 3, as is a key of another project); a standalone key alike.
 */
export async function revokeKey(
  io: CliIo,
  storage: Store,
  id: string,
  slug: string | undefined,
): Promise<void> {
  const key = await keyNamed(storage, id);
  const project = await projectOfKey(storage, key, slug);
  if (project) {
    const outcome = await keyService(storage, key).revoke(OPERATOR, project.slug, key.id);
    if (!outcome.ok) throw refusalError(outcome.problem);
  } else if (key.revokedAt !== null) {
    throw new NotFoundError(`${id} is already revoked (on ${formatInstant(key.revokedAt, '')})`);
  } else await storage.keys.revoke(key.id, Date.now());
  say(io, `revoked ${key.id}`);
}

/** `keys roll`: through the keys service, as the management API rolls keys (a second roll: status 6). */
export async function rollKey(
  io: CliIo,
  storage: Store,
  id: string,
  options: { slug: string | undefined; overlapSeconds: number | undefined; json: boolean },
): Promise<void> {
  const key = await keyNamed(storage, id);
  const project = await projectOfKey(storage, key, options.slug);
  if (!project) {
    throw new UsageError(`key ${key.id} is a standalone key: create a new one and revoke this one instead`);
  }
  const outcome = await keyService(storage, key).roll(OPERATOR, project.slug, key.id, options.overlapSeconds);
  if (!outcome.ok) throw refusalError(outcome.problem);
  const { key: next, previous, secret } = outcome.value;
  printRolledKey(
    io,
    { id: next.id, previous: previous.id, previousExpiresAt: previous.expiresAt, key: secret },
    options.json,
  );
}

/** A key the operator's own actions change: a revoked one is a conflict (status 6), as a roll of it is. */
async function changeableKey(storage: Store, id: string): Promise<ApiKeyRecord> {
  const key = await keyNamed(storage, id);
  if (key.revokedAt !== null) {
    throw new CliError(
      `${id} was revoked on ${formatInstant(key.revokedAt, '')}: a revoked key cannot be changed`,
      EXIT.conflict,
    );
  }
  return key;
}

/** `keys unban`, `keys set-plan` and `keys set-limits`: the operator's own, on the database alone. */
export async function changeKey(
  io: CliIo,
  storage: Store,
  id: string,
  change: { unban: true } | { plan: PlanChoice } | { own: OwnLimits },
): Promise<void> {
  const key = await changeableKey(storage, id);
  const now = Date.now();
  if ('unban' in change) {
    const banned = keyStatus(key, now).state === 'banned';
    await storage.keys.unban(key.id, now);
    await liftStoreBan(io, key.id, key.projectId);
    say(io, banned ? `unbanned ${key.id}` : `${key.id} was not banned; any ban held by a server is lifted`);
  } else if ('plan' in change) {
    const { plan, perMinute, perDay } = change.plan;
    if (key.projectId !== null) {
      throw new UsageError(
        `key ${key.id} follows its project's plan: change it with "petstore projects set-plan <slug>"`,
      );
    }
    await storage.keys.setPlan(key.id, plan, perMinute, perDay);
    say(io, `${key.id} is now on plan ${plan} (was ${key.plan})`);
  } else {
    if (key.projectId === null) {
      throw new UsageError(
        `key ${key.id} is a standalone key: its limits are its plan's ("petstore keys set-plan")`,
      );
    }
    checkOwnLimits(change.own, { ...key, slug: key.projectId });
    await storage.keys.setOwnLimits(key.id, change.own.ownPerMinute, change.own.ownPerDay);
    const text = ownLimitsText(change.own);
    say(
      io,
      text.length > 0 ? `${key.id}: ${text[0]}` : `${key.id}: no limits of its own, its project's alone`,
    );
  }
}
