import { randomBytes } from 'node:crypto';
import {
  describeDatabase,
  loadConfig,
  nameProblem,
  openStorage,
  planProblem,
  type Plan,
  type Project,
  slugProblem,
  type Storage,
} from '@petstore/server';
import { parseCommand, UsageError } from './usage.ts';

const HELP = `petstore projects <create|list|set-plan> [options]

  projects create --name "Acme Docs" --slug acme --plan free|pro|business|enterprise
                  [--per-minute N --per-day N] [--json]
      A project owns API keys (its plan sets their limits) and a docs site at <slug>.<PETSTORE_SITE_DOMAIN>.
      The slug is 1 to 40 lower-case letters, digits and inner dashes; enterprise needs --per-minute and --per-day.
  projects list [--json]       Every project with its plan and limits.
  projects set-plan <slug> --plan P [--per-minute N --per-day N]
                               Changes the plan; every key of the project follows on its next request.

  --database URL   postgres://… or a SQLite file path (DATABASE_URL, default ./data/petstore.db)`;

const OPTIONS = {
  name: { type: 'string' },
  slug: { type: 'string' },
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
} as const;

type Values = Record<string, string | boolean | undefined>;

function limit(name: string, text: string | boolean | undefined): number | null {
  if (text === undefined) return null;
  if (typeof text !== 'string' || !/^[1-9]\d{0,9}$/.test(text))
    throw new UsageError(`--${name} must be a positive integer`);
  return Number(text);
}

/** --plan with its limits, checked by the same rules the server applies. */
export function readPlanChoice(values: Values): {
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
} {
  const choice = {
    plan: values.plan as Plan,
    perMinute: limit('per-minute', values['per-minute']),
    perDay: limit('per-day', values['per-day']),
  };
  if (typeof values.plan !== 'string')
    throw new UsageError('--plan is required (free, pro, business or enterprise)');
  const problem = planProblem(choice);
  if (problem) throw new UsageError(problem.replace(/^the plan/, '--plan'));
  return choice;
}

const required = (values: Values, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};

async function create(storage: Storage, values: Values): Promise<void> {
  const name = required(values, 'name').trim();
  const slug = required(values, 'slug');
  const problem = slugProblem(slug) ?? nameProblem(name);
  if (problem) throw new UsageError(problem.replace(/^the (slug|name)/, '--$1'));
  const project: Project = {
    id: `prj_${randomBytes(8).toString('hex')}`,
    slug,
    name,
    ...readPlanChoice(values),
    createdAt: Date.now(),
  };
  if (!(await storage.projects.create(project)))
    throw new UsageError(`a project with slug ${slug} already exists`);
  if (values.json) console.log(JSON.stringify(project));
  else console.log(`created project ${slug} ("${name}", plan ${project.plan})`);
}

function limitsText(project: Project): string {
  return project.plan === 'enterprise' ? `${project.perMinute}/min ${project.perDay}/day` : '';
}

async function list(storage: Storage, values: Values): Promise<void> {
  const projects = await storage.projects.list();
  if (values.json) {
    console.log(JSON.stringify(projects));
    return;
  }
  if (projects.length === 0) {
    console.log(
      'no projects; create one with: petstore projects create --name "Acme Docs" --slug acme --plan free',
    );
    return;
  }
  const rows = [
    ['SLUG', 'PLAN', 'LIMITS', 'CREATED', 'NAME'],
    ...projects.map((p) => [
      p.slug,
      p.plan,
      limitsText(p),
      new Date(p.createdAt).toISOString().slice(0, 10),
      p.name,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

async function setPlan(storage: Storage, positionals: string[], values: Values): Promise<void> {
  const [slug, ...extra] = positionals;
  if (slug === undefined || extra.length > 0)
    throw new UsageError('projects set-plan takes one project slug');
  const choice = readPlanChoice(values);
  if (!(await storage.projects.setPlan(slug, choice.plan, choice.perMinute, choice.perDay))) {
    throw new UsageError(`no project with slug ${slug}`);
  }
  console.log(`project ${slug} is now on plan ${choice.plan}; its keys follow on their next request`);
}

export async function runProjects(args: string[]): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, HELP);
  if (!parsed) return 0;
  const [action, ...positionals] = parsed.positionals;
  if (!['create', 'list', 'set-plan'].includes(action ?? '')) {
    throw new UsageError(
      action ? `unknown projects command "${action}"; run "petstore projects --help"` : HELP,
    );
  }
  const config = loadConfig(process.env, { database: parsed.values.database as string | undefined });
  const storage = await openStorage(config.databaseUrl);
  try {
    await storage.migrate();
    if (action === 'create') await create(storage, parsed.values);
    else if (action === 'list') await list(storage, parsed.values);
    else await setPlan(storage, positionals, parsed.values);
    if (!parsed.values.json) console.error(`(database: ${describeDatabase(config.databaseUrl)})`);
    return 0;
  } finally {
    await storage.close();
  }
}
