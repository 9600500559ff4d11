import { type ApiKeyRecord, PLANS, type Plan } from '@petstore/server/storage/records.ts';
import { createKeyService } from '@petstore/server/features/keys/service.ts';
import { keyEnvironmentOf } from '@petstore/server/config.ts';
import { limitsFor } from '@petstore/server/ratelimit/plans.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import type { Project } from '@petstore/server/features/projects/project-repository.ts';
import type { Storage } from '@petstore/server/storage/repository.ts';
import { openServerDatabase } from './database.ts';
import { CliError, EXIT, NotFoundError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { keyState, listKeys, readKeysCursor } from './keys-list.ts';
import { MAX_PAGE_SIZE } from './paged-output.ts';
import { liftStoreBan } from './store-ban.ts';
import { formatInstant } from './table.ts';
import { ownLimitsText, printCreatedKey, printRolledKey } from './keys-output.ts';
import { TIMEOUT_OPTIONS } from './http-options.ts';
import { chooseMode, databaseOnly } from './manage-session.ts';
import { type ParsedCommand, parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore keys <create|list|revoke|roll|unban|set-plan|set-limits> [options]

  keys create --project <slug> [--per-minute N] [--per-day N] [--label T] [--expires-in-days N] [--json]
      Creates a key of the project for this environment (PETSTORE_ENV: ps_live_ in production, ps_test_
      elsewhere), held to the project's plan: its limits hold for all the project's keys together.
      --per-minute/--per-day give the key lower limits of its own (at most the project's). The key is
      printed once, alone on the last line (or as "key" with --json); only its digest is kept.
  keys create --plan free|pro|business|enterprise [--per-minute N --per-day N] [--label T]
              [--expires-in-days N] [--json]
      Creates a standalone key with its own plan (no project). Enterprise keys need --per-minute and
      --per-day.
  keys list [--project <slug>] [--limit N] [--cursor C] [--all] [--json]
      Keys in creation order (every key, or the project's): environment, plan, label, created, last
      used, expires, state. One page of --limit keys (default 100, at most 10000); stderr then names
      the --cursor of the next page.
      --all prints every key from the cursor on, page after page, in constant memory.
  keys revoke <id>             The key stops working at once.
  keys roll <id> [--overlap-seconds N] [--json]
                               A new key with the old one's label, expiry and own limits; the old one
                               keeps working N seconds more (default 86400, at most 604800). The new
                               key is printed once, alone on the last line.
  keys unban <id>              Lifts a temporary ban.
  keys set-plan <id> --plan P [--per-minute N --per-day N]
                               Changes a standalone key's plan; running servers apply it without a
                               restart. A project key follows its project: "petstore projects set-plan".
  keys set-limits <id> [--per-minute N] [--per-day N]
                               Sets a project key's own lower limits (at most the project's); without
                               either option, clears them. Running servers apply it without a restart.
  A revoked key cannot be revoked again, rolled, unbanned or re-planned.

  With an access token ("petstore login", or PETSTORE_ACCESS_TOKEN), create --project, list, revoke
  and roll call the management API at PETSTORE_BASE_URL and need --project <slug>; the others are the
  operator's, on the server's database. A line on stderr says which mode a command used.

  --database URL   the server's database: postgres://… or a SQLite file path (DATABASE_URL, default
                   ./data/petstore.db from the current directory); it always means the database. These
                   commands never create a database: "petstore migrate" or "petstore serve" does.`;

const OPTIONS = {
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  label: { type: 'string' },
  'expires-in-days': { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
  project: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  'overlap-seconds': { type: 'string' },
  ...TIMEOUT_OPTIONS,
} as const;

const ACTIONS = ['create', 'list', 'revoke', 'roll', 'unban', 'set-plan', 'set-limits'];
/** The longest overlap of a rolled key: seven days, as the keys service allows. */
const ROLL_OVERLAP_MAX_SECONDS = 7 * 86_400;

interface PlanChoice {
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
}

function readPlan(parsed: ParsedCommand): PlanChoice {
  const plan = stringOption(parsed, 'plan');
  if (plan === undefined || !PLANS.includes(plan as Plan)) {
    throw new UsageError(
      `--plan must be one of ${PLANS.join(', ')}${plan === undefined ? '' : `, got ${JSON.stringify(plan)}`}`,
    );
  }
  const perMinute = positiveInteger('per-minute', stringOption(parsed, 'per-minute')) ?? null;
  const perDay = positiveInteger('per-day', stringOption(parsed, 'per-day'), 1e12) ?? null;
  if (plan === 'enterprise' && (perMinute === null || perDay === null)) {
    throw new UsageError('an enterprise key needs --per-minute N and --per-day N');
  }
  if (plan !== 'enterprise' && (perMinute !== null || perDay !== null)) {
    throw new UsageError('--per-minute and --per-day are for enterprise keys; other plans have fixed limits');
  }
  return { plan: plan as Plan, perMinute, perDay };
}

/** A project key's own lower limits (`--per-minute`, `--per-day`); null where not given. */
interface OwnLimits {
  ownPerMinute: number | null;
  ownPerDay: number | null;
}

function readOwnLimits(parsed: ParsedCommand): OwnLimits {
  if (parsed.values.plan !== undefined) {
    throw new UsageError('a project key follows its project plan: give --project or --plan, not both');
  }
  return {
    ownPerMinute: positiveInteger('per-minute', stringOption(parsed, 'per-minute')) ?? null,
    ownPerDay: positiveInteger('per-day', stringOption(parsed, 'per-day'), 1e12) ?? null,
  };
}

/** Own limits above the project's would never bind: refused, naming the project's. */
function checkOwnLimits(
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

interface NewKeyChoice {
  /** `--plan` for a standalone key; a project key takes its project's. */
  limits: PlanChoice | undefined;
  /** A project key's own lower limits. */
  own: OwnLimits | undefined;
  project: string | undefined;
  label: string | null;
  expiresInDays: number | undefined;
}

/** Everything `keys create` was asked for, checked before the database is opened. */
function readNewKey(parsed: ParsedCommand): NewKeyChoice {
  const project = stringOption(parsed, 'project');
  const planned = ['plan', 'per-minute', 'per-day'].some((name) => parsed.values[name] !== undefined);
  if (project === undefined && !planned) {
    throw new UsageError(
      'keys create needs --project <slug> (a key of the project, on its plan) or --plan P for a standalone key',
    );
  }
  return {
    limits: project === undefined ? readPlan(parsed) : undefined,
    own: project === undefined ? undefined : readOwnLimits(parsed),
    project,
    label: stringOption(parsed, 'label') ?? null,
    expiresInDays: positiveInteger('expires-in-days', stringOption(parsed, 'expires-in-days'), 36_500),
  };
}

async function projectOf(storage: Storage, slug: string): Promise<Project> {
  const project = await storage.projects.bySlug(slug);
  if (!project) throw new NotFoundError(`no project with slug ${slug}; "petstore projects list" shows them`);
  return project;
}

/** Creates the key through the keys service, as the dashboard and the management API do. */
async function create(
  io: CliIo,
  storage: Storage,
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
  const keys = createKeyService({ storage, clock: systemClock, keyEnvironment: environment });
  const expiresAt = expiresInDays ? systemClock.now() + expiresInDays * 86_400_000 : null;
  const outcome = project
    ? await keys.create(OPERATOR, project.slug, {
        label,
        expiresAt,
        perMinute: own?.ownPerMinute ?? null,
        perDay: own?.ownPerDay ?? null,
      })
    : await keys.createStandalone(limits, { label, expiresAt });
  if (!outcome.ok) throw new UsageError(`--${outcome.problem.param ?? 'label'}: ${outcome.problem.message}`);
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

/** The key an action names, refused when it is unknown (usage) or revoked (failure). */
async function existingKey(storage: Storage, positionals: string[]): Promise<ApiKeyRecord> {
  const id = positionals[0]!;
  const key = await storage.keys.get(id);
  if (!key) throw new NotFoundError(`no key with id ${id}; "petstore keys list" shows them`);
  if (key.revokedAt !== null) {
    throw new CliError(
      `${id} was revoked on ${formatInstant(key.revokedAt, '')}: a revoked key cannot be changed`,
    );
  }
  return key;
}

async function change(
  io: CliIo,
  storage: Storage,
  action: string,
  positionals: string[],
  limits: PlanChoice | undefined,
  own: OwnLimits | undefined,
): Promise<void> {
  const key = await existingKey(storage, positionals);
  const now = Date.now();
  if (action === 'revoke') {
    const project = key.projectId === null ? undefined : await storage.projects.byId(key.projectId);
    if (project) {
      // A project's key is revoked by the keys service, with its audit record in the same transaction.
      const keys = createKeyService({ storage, clock: systemClock, keyEnvironment: key.environment });
      const outcome = await keys.revoke(OPERATOR, project.slug, key.id);
      if (!outcome.ok) throw new CliError(outcome.problem.message);
    } else await storage.keys.revoke(key.id, now);
    say(io, `revoked ${key.id}`);
  } else if (action === 'unban') {
    const banned = keyState(key, now).startsWith('banned');
    await storage.keys.unban(key.id, now);
    await liftStoreBan(io, key.id, key.projectId);
    say(io, banned ? `unbanned ${key.id}` : `${key.id} was not banned; any ban held by a server is lifted`);
  } else if (limits) {
    if (key.projectId !== null) {
      throw new UsageError(
        `key ${key.id} follows its project's plan: change it with "petstore projects set-plan <slug>"`,
      );
    }
    await storage.keys.setPlan(key.id, limits.plan, limits.perMinute, limits.perDay);
    say(io, `${key.id} is now on plan ${limits.plan} (was ${key.plan})`);
  } else if (own) {
    if (key.projectId === null) {
      throw new UsageError(
        `key ${key.id} is a standalone key: its limits are its plan's ("petstore keys set-plan")`,
      );
    }
    checkOwnLimits(own, { ...key, slug: key.projectId });
    await storage.keys.setOwnLimits(key.id, own.ownPerMinute, own.ownPerDay);
    const text = ownLimitsText(own);
    say(
      io,
      text.length > 0 ? `${key.id}: ${text[0]}` : `${key.id}: no limits of its own, its project's alone`,
    );
  }
}

/** `keys roll <id>` on the database: through the keys service, as the management API rolls keys. */
async function roll(
  io: CliIo,
  storage: Storage,
  positionals: string[],
  overlapSeconds: number | undefined,
  json: boolean,
): Promise<void> {
  const key = await existingKey(storage, positionals);
  const project = key.projectId === null ? undefined : await storage.projects.byId(key.projectId);
  if (!project) {
    throw new UsageError(`key ${key.id} is a standalone key: create a new one and revoke this one instead`);
  }
  const keys = createKeyService({ storage, clock: systemClock, keyEnvironment: key.environment });
  const outcome = await keys.roll(OPERATOR, project.slug, key.id, overlapSeconds);
  if (!outcome.ok) throw new CliError(outcome.problem.message);
  const { key: next, previous, secret } = outcome.value;
  printRolledKey(
    io,
    { id: next.id, previous: previous.id, previousExpiresAt: previous.expiresAt, key: secret },
    json,
  );
}

export async function runKeys(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'keys', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action] = parsed.positionals;
  if (action === undefined || !ACTIONS.includes(action)) {
    throw new UsageError(
      action
        ? `unknown keys command "${action}"; run "petstore keys --help"`
        : `keys needs one of ${ACTIONS.join(', ')}; run "petstore keys --help"`,
    );
  }
  const json = parsed.values.json === true;
  // The words are checked before anything is opened: a usage error changes nothing.
  const newKey = action === 'create' ? readNewKey(parsed) : undefined;
  const limits = action === 'set-plan' ? readPlan(parsed) : undefined;
  const own = action === 'set-limits' ? readOwnLimits(parsed) : undefined;
  const cursor = stringOption(parsed, 'cursor');
  const paging = {
    json,
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), MAX_PAGE_SIZE),
    cursor,
    all: parsed.values.all === true,
  };
  const overlapSeconds = positiveInteger(
    'overlap-seconds',
    stringOption(parsed, 'overlap-seconds'),
    ROLL_OVERLAP_MAX_SECONDS,
  );
  const positionals = parsed.positionals.slice(1);
  if (['revoke', 'roll', 'unban', 'set-plan', 'set-limits'].includes(action) && positionals.length !== 1) {
    throw new UsageError(`keys ${action} takes one key id`);
  }
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    if (!['create', 'list', 'revoke', 'roll'].includes(action) || newKey?.limits) {
      throw databaseOnly(newKey?.limits ? 'keys create --plan' : `keys ${action}`);
    }
    const choice = {
      project: stringOption(parsed, 'project'),
      label: newKey?.label ?? null,
      expiresInDays: newKey?.expiresInDays,
      ownPerMinute: newKey?.own?.ownPerMinute ?? null,
      ownPerDay: newKey?.own?.ownPerDay ?? null,
    };
    const { runKeysApi } = await import('./keys-api.ts');
    await runKeysApi(io, mode.api, action, positionals[0], { choice, overlapSeconds, paging });
    return EXIT.ok;
  }
  const project = stringOption(parsed, 'project');
  if (action === 'list' && project === undefined) readKeysCursor(cursor);
  const { config, storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    if (newKey) await create(io, storage, newKey, keyEnvironmentOf(config.environment), json);
    else if (action === 'list') await listKeys(io, storage, { ...paging, project });
    else if (action === 'roll') await roll(io, storage, positionals, overlapSeconds, json);
    else await change(io, storage, action, positionals, limits, own);
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
