import {
  type ApiKeyRecord,
  generateKey,
  keyEnvironmentOf,
  loadConfig,
  openStorage,
  PLANS,
  type Plan,
  type Project,
  type Storage,
} from '@petstore/server';
import { liftStoreBan } from './store-ban.ts';
import { parseCommand, UsageError } from './usage.ts';

const HELP = `petstore keys <create|list|revoke|unban|set-plan> [options]

  keys create --project <slug> [--label T] [--expires-in-days N] [--json]
      Creates a key of the project for this environment (PETSTORE_ENV: ps_live_ in production, ps_test_
      elsewhere), held to the project's plan. The key is printed once, alone on the last line (or as
      "key" with --json); only its digest is kept.
  keys create --plan free|pro|business|enterprise [--per-minute N --per-day N] [--label T]
              [--expires-in-days N] [--json]
      Creates a standalone key with its own plan (no project). Enterprise needs --per-minute and --per-day.
  keys list [--json]           Every key with its plan, limits and state (active, revoked, expired, banned).
  keys revoke <id>             The key stops working at once.
  keys unban <id>              Lifts a temporary ban.
  keys set-plan <id> --plan P [--per-minute N --per-day N]
                               Changes a standalone key's plan; running servers apply it without a restart.
                               A project key follows its project: use petstore projects set-plan.

  --database URL   postgres://… or a SQLite file path (DATABASE_URL, default ./data/petstore.db)`;

const OPTIONS = {
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  label: { type: 'string' },
  'expires-in-days': { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
  project: { type: 'string' },
} as const;

type Values = Record<string, string | boolean | undefined>;

const DONE: Record<string, string> = { revoke: 'revoked', unban: 'unbanned', 'set-plan': 'plan changed for' };

function positiveInteger(name: string, text: string | boolean | undefined): number | null {
  if (text === undefined) return null;
  if (typeof text !== 'string' || !/^[1-9]\d{0,9}$/.test(text))
    throw new UsageError(`--${name} must be a positive integer`);
  return Number(text);
}

function readPlan(values: Values): { plan: Plan; perMinute: number | null; perDay: number | null } {
  const plan = values.plan;
  if (typeof plan !== 'string' || !PLANS.includes(plan as Plan)) {
    throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
  }
  const perMinute = positiveInteger('per-minute', values['per-minute']);
  const perDay = positiveInteger('per-day', values['per-day']);
  if (plan === 'enterprise' && (perMinute === null || perDay === null)) {
    throw new UsageError('an enterprise key needs --per-minute N and --per-day N');
  }
  if (plan !== 'enterprise' && (perMinute !== null || perDay !== null)) {
    throw new UsageError('--per-minute and --per-day are for enterprise keys; other plans have fixed limits');
  }
  return { plan: plan as Plan, perMinute, perDay };
}

function state(key: ApiKeyRecord, now: number): string {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  if (key.bannedUntil !== null && key.bannedUntil > now)
    return `banned until ${new Date(key.bannedUntil).toISOString()}`;
  return 'active';
}

/** The project named by --project; --plan and custom limits belong to the project then, not the key. */
async function projectOf(storage: Storage, values: Values): Promise<Project> {
  if (values.plan !== undefined || values['per-minute'] !== undefined || values['per-day'] !== undefined) {
    throw new UsageError('a project key follows its project plan: give --project or --plan, not both');
  }
  const project = await storage.projects.bySlug(values.project as string);
  if (!project)
    throw new UsageError(`no project with slug ${String(values.project)}; see petstore projects list`);
  return project;
}

async function create(
  storage: Storage,
  values: Values,
  environment: ReturnType<typeof keyEnvironmentOf>,
): Promise<void> {
  const project = typeof values.project === 'string' ? await projectOf(storage, values) : undefined;
  const limits = project
    ? { plan: project.plan, perMinute: project.perMinute, perDay: project.perDay }
    : readPlan(values);
  const days = positiveInteger('expires-in-days', values['expires-in-days']);
  const now = Date.now();
  const { secret, id, digest, prefix } = generateKey(environment);
  const label = typeof values.label === 'string' ? values.label : null;
  await storage.createKey({
    id,
    digest,
    prefix,
    projectId: project?.id ?? null,
    ...limits,
    label,
    environment,
    createdAt: now,
    expiresAt: days ? now + days * 86_400_000 : null,
  });
  if (values.json) {
    console.log(
      JSON.stringify({
        id,
        project: project?.slug ?? null,
        plan: limits.plan,
        perMinute: limits.perMinute,
        perDay: limits.perDay,
        label,
        key: secret,
      }),
    );
    return;
  }
  console.log(
    `created ${id} (${project ? `project ${project.slug}, ` : ''}plan ${limits.plan}${label ? `, label "${label}"` : ''}); the key is shown once:`,
  );
  console.log(secret);
}

async function list(storage: Storage, values: Values): Promise<void> {
  const keys = await storage.listKeys();
  const now = Date.now();
  if (values.json) {
    console.log(
      JSON.stringify(
        keys.map(({ digest: _digest, ...key }) => ({ ...key, state: state({ ...key, digest: '' }, now) })),
      ),
    );
    return;
  }
  if (keys.length === 0) {
    console.log('no keys; create one with: petstore keys create --plan free');
    return;
  }
  for (const key of keys) {
    const limits = key.plan === 'enterprise' ? ` ${key.perMinute}/min ${key.perDay}/day` : '';
    console.log(
      `${key.id}  ${key.plan}${limits}  ${state(key, now)}  ${new Date(key.createdAt).toISOString()}  ${key.label ?? ''}`.trimEnd(),
    );
  }
}

async function change(
  storage: Storage,
  action: string,
  positionals: string[],
  values: Values,
): Promise<void> {
  const id = positionals[0];
  if (id === undefined || positionals.length !== 1) throw new UsageError(`keys ${action} takes one key id`);
  let found: boolean;
  if (action === 'revoke') found = await storage.revokeKey(id, Date.now());
  else if (action === 'unban') {
    found = await storage.unbanKey(id, Date.now());
    if (found) await liftStoreBan(id);
  } else {
    const limits = readPlan(values);
    const key = await storage.getKey(id);
    if (key?.projectId) {
      throw new UsageError(
        `key ${id} follows its project's plan: change it with petstore projects set-plan <slug>`,
      );
    }
    found = await storage.updateKeyPlan(id, limits.plan, limits.perMinute, limits.perDay);
  }
  if (!found) throw new UsageError(`no key with id ${id}`);
  console.log(`${DONE[action]} ${id}`);
}

export async function runKeys(args: string[]): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, HELP);
  if (!parsed) return 0;
  const [action, ...positionals] = parsed.positionals;
  if (!['create', 'list', 'revoke', 'unban', 'set-plan'].includes(action ?? '')) {
    throw new UsageError(action ? `unknown keys command "${action}"; run "petstore keys --help"` : HELP);
  }
  const config = loadConfig(process.env, { database: parsed.values.database as string | undefined });
  const storage = await openStorage(config.databaseUrl);
  try {
    await storage.migrate();
    if (action === 'create') await create(storage, parsed.values, keyEnvironmentOf(config.environment));
    else if (action === 'list') await list(storage, parsed.values);
    else await change(storage, action!, positionals, parsed.values);
    return 0;
  } finally {
    await storage.close();
  }
}
