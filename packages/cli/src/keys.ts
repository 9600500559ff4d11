import { PLANS, type Plan } from '@petstore/server/storage/records.ts';
import { keyEnvironmentOf } from '@petstore/server/config.ts';
import { openServerDatabase } from './database.ts';
import { EXIT } from './exit.ts';
import type { CliIo } from './io.ts';
import {
  changeKey,
  createKey,
  type NewKeyChoice,
  type OwnLimits,
  type PlanChoice,
  revokeKey,
  rollKey,
} from './keys-database.ts';
import { listKeys, readKeysCursor } from './keys-list.ts';
import { type ProjectKeyAction, projectKeyAction } from './keys-project.ts';
import { MAX_PAGE_SIZE } from './paged-output.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { type ParsedCommand, parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore keys <create|list|get|update|revoke|roll|unban|set-plan|set-limits> [options]

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
  keys get <id> --project <slug> [--json]
                               One key of the project: the list's columns (STATE: active, rolling
                               until …, expired, revoked or banned until …), or the API's Key object.
  keys update <id> --project <slug> [--label T] [--per-minute N|none] [--per-day N|none] [--json]
                               Changes the key's label and its own limits (at most the project's;
                               "none" clears one); what is not given stays.
  keys revoke <id>             The key stops working at once.
  keys roll <id> [--overlap-seconds N] [--json]
                               A new key with the old one's label, expiry and own limits; the old one
                               keeps working N seconds more (default 86400, at most 604800). The new
                               key is printed once, alone on the last line.
  keys unban <id> [--project <slug>]
                               Lifts a temporary ban (with --project: an owner's, audited).
  keys set-plan <id> --plan P [--per-minute N --per-day N]
                               Changes a standalone key's plan; running servers apply it without a
                               restart. A project key follows its project: "petstore projects set-plan".
  keys set-limits <id> [--project <slug>] [--per-minute N] [--per-day N]
                               Sets a project key's own lower limits (at most the project's); without
                               either option, clears them. Running servers apply it without a restart.
  A revoked key cannot be rolled, unbanned or re-planned (status 6); revoking it again is status 3, as
  for a key that does not exist (the management API's answer).

  The operator's own, on the database alone: create --plan, set-plan, and list, revoke, roll, unban
  and set-limits without --project (every key; any key by its id). With --project, every other command
  is the project's: on the database, or through the management API with a token, with the same exit
  statuses.

${MODE_HELP}`;

const OPTIONS = {
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  label: { type: 'string' },
  'expires-in-days': { type: 'string' },
  json: { type: 'boolean' },
  project: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  'overlap-seconds': { type: 'string' },
  ...MODE_OPTIONS,
} as const;

const ACTIONS = ['create', 'list', 'get', 'update', 'revoke', 'roll', 'unban', 'set-plan', 'set-limits'];
/** The commands that name one key by its id. */
const ONE_KEY = ['get', 'update', 'revoke', 'roll', 'unban', 'set-plan', 'set-limits'];
/** The longest overlap of a rolled key: seven days, as the keys service allows. */
const ROLL_OVERLAP_MAX_SECONDS = 7 * 86_400;

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

function readOwnLimits(parsed: ParsedCommand): OwnLimits {
  if (parsed.values.plan !== undefined) {
    throw new UsageError('a project key follows its project plan: give --project or --plan, not both');
  }
  return {
    ownPerMinute: positiveInteger('per-minute', stringOption(parsed, 'per-minute')) ?? null,
    ownPerDay: positiveInteger('per-day', stringOption(parsed, 'per-day'), 1e12) ?? null,
  };
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

/** `--per-minute N|none` of `keys update`: absent, a limit, or null to clear it. */
function limitChange(parsed: ParsedCommand, name: 'per-minute' | 'per-day'): number | null | undefined {
  const text = stringOption(parsed, name);
  if (text === 'none') return null;
  return positiveInteger(name, text, name === 'per-day' ? 1e12 : undefined);
}

/** What `keys get|update|unban|set-limits --project` do to the key, checked before anything is opened. */
function readKeyAction(parsed: ParsedCommand, action: string): ProjectKeyAction | undefined {
  if (action === 'get') return { kind: 'get' };
  if (action === 'unban') return { kind: 'unban' };
  if (action === 'set-limits') {
    const own = readOwnLimits(parsed);
    return { kind: 'update', change: { perMinute: own.ownPerMinute, perDay: own.ownPerDay } };
  }
  if (action !== 'update') return undefined;
  const label = stringOption(parsed, 'label');
  const change = {
    ...(label === undefined ? {} : { label: label.trim() === '' ? null : label }),
    ...(parsed.values['per-minute'] === undefined ? {} : { perMinute: limitChange(parsed, 'per-minute') }),
    ...(parsed.values['per-day'] === undefined ? {} : { perDay: limitChange(parsed, 'per-day') }),
  };
  if (Object.keys(change).length === 0)
    throw new UsageError('keys update needs --label, --per-minute or --per-day');
  return { kind: 'update', change };
}

/**
 * The operator's own keys commands, which run on the database alone: standalone keys and plans, bans,
 * own limits, and any key without --project (every key, found by its id).
 */
function operatorCommand(action: string, project: string | undefined): string | undefined {
  if (action === 'set-plan') return `keys ${action}`;
  if (project !== undefined) return undefined;
  if (action === 'get' || action === 'update') throw new UsageError(`keys ${action} needs --project <slug>`);
  if (action === 'create') return 'keys create --plan';
  return `keys ${action} without --project (--project <slug> reaches a project's keys through the API)`;
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
  const own =
    action === 'set-limits' && parsed.values.project === undefined ? readOwnLimits(parsed) : undefined;
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
  if (ONE_KEY.includes(action) && positionals.length !== 1) {
    throw new UsageError(`keys ${action} takes one key id`);
  }
  const project = stringOption(parsed, 'project');
  const operator = operatorCommand(action, project);
  const keyAction = project === undefined ? undefined : readKeyAction(parsed, action);
  const mode = await chooseMode(io, parsed, operator);
  if (mode.kind === 'api') {
    const choice = {
      // Only a project's commands reach the API (operatorCommand).
      project: project!,
      label: newKey?.label ?? null,
      expiresInDays: newKey?.expiresInDays,
      ownPerMinute: newKey?.own?.ownPerMinute ?? null,
      ownPerDay: newKey?.own?.ownPerDay ?? null,
    };
    const { runKeysApi } = await import('./keys-api.ts');
    await runKeysApi(io, mode.api, action, positionals[0], { choice, overlapSeconds, paging, keyAction });
    return EXIT.ok;
  }
  if (action === 'list' && project === undefined) readKeysCursor(cursor);
  const { config, storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    const id = positionals[0]!;
    if (keyAction) await projectKeyAction(io, storage, project!, id, keyAction, json);
    else if (newKey) await createKey(io, storage, newKey, keyEnvironmentOf(config.environment), json);
    else if (action === 'list') await listKeys(io, storage, { ...paging, project });
    else if (action === 'revoke') await revokeKey(io, storage, id, project);
    else if (action === 'roll') await rollKey(io, storage, id, { slug: project, overlapSeconds, json });
    else await changeKey(io, storage, id, limits ? { plan: limits } : own ? { own } : { unban: true });
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
