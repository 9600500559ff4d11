import { randomBytes } from 'node:crypto';
import {
  nameProblem,
  planProblem,
  type Plan,
  type Project,
  slugProblem,
  type Storage,
} from '@petstore/server/operator';
import { openServerDatabase } from './database.ts';
import { EXIT, NotFoundError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { decodeCursor, MAX_PAGE_SIZE, type Paging, printPages } from './paged-output.ts';
import { formatInstant } from './table.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';
import { recordOperator } from './operator-audit.ts';

const HELP = `petstore projects <create|list|set-plan> [options]

  projects create --name "Acme Docs" --slug acme --plan free|pro|business|enterprise
                  [--per-minute N --per-day N] [--json]
      A project owns API keys (its plan sets their limits) and a docs site at <slug>.<PETSTORE_SITE_DOMAIN>.
      The slug is 1 to 40 lower-case letters, digits and inner dashes; enterprise needs --per-minute and --per-day.
  projects list [--limit N] [--cursor C] [--all] [--json]
                               Projects by slug with their plan and limits: one page of --limit
                               (default 100, at most 10000), the next page's --cursor on stderr;
                               --all prints every project, page after page, in constant memory.
  projects set-plan <slug> --plan P [--per-minute N --per-day N]
                               Changes the plan; every key of the project follows on its next request.

  --database URL   the server's database: postgres://… or a SQLite file path (DATABASE_URL, default
                   ./data/petstore.db). These commands never create a database: "petstore migrate" does.`;

const OPTIONS = {
  name: { type: 'string' },
  slug: { type: 'string' },
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
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

/** Everything `projects create` was asked for, checked before the database is opened. */
function readNewProject(values: Values): Project {
  const name = required(values, 'name').trim();
  const slug = required(values, 'slug');
  const problem = slugProblem(slug) ?? nameProblem(name);
  if (problem) throw new UsageError(problem.replace(/^the (slug|name)/, '--$1'));
  return {
    id: `prj_${randomBytes(8).toString('hex')}`,
    slug,
    name,
    ...readPlanChoice(values),
    createdAt: Date.now(),
  };
}

async function create(io: CliIo, storage: Storage, project: Project, json: boolean): Promise<void> {
  if (!(await storage.projects.create(project)))
    throw new UsageError(`a project with slug ${project.slug} already exists`);
  await recordOperator(storage, 'project_created', project.id, `${project.name} (${project.plan})`);
  if (json) say(io, JSON.stringify(project));
  else say(io, `created project ${project.slug} ("${project.name}", plan ${project.plan})`);
}

function limitsText(project: Project): string {
  return project.plan === 'enterprise' ? `${project.perMinute}/min ${project.perDay}/day` : '';
}

/** `projects list`: one page by slug, or with --all every project in constant memory (printPages). */
async function list(io: CliIo, storage: Storage, options: Paging<string> & { json: boolean }): Promise<void> {
  await printPages(
    io,
    {
      command: 'petstore projects list',
      page: (after, limit) => storage.projects.listPage(after, limit),
      cursorOf: (project) => project.slug,
      columns: [
        { title: 'SLUG' },
        { title: 'PLAN' },
        { title: 'LIMITS' },
        { title: 'CREATED' },
        { title: 'NAME' },
      ],
      row: (p) => [p.slug, p.plan, limitsText(p), formatInstant(p.createdAt, ''), p.name],
      record: (project) => JSON.stringify(project),
      empty:
        'no projects; create one with: petstore projects create --name "Acme Docs" --slug acme --plan free',
    },
    options,
  );
}

async function setPlan(
  io: CliIo,
  storage: Storage,
  slug: string,
  choice: ReturnType<typeof readPlanChoice>,
): Promise<void> {
  const before = await storage.projects.bySlug(slug);
  if (!before || !(await storage.projects.setPlan(slug, choice.plan, choice.perMinute, choice.perDay))) {
    throw new NotFoundError(`no project with slug ${slug}`);
  }
  await recordOperator(storage, 'plan_changed', before.id, `${before.plan} → ${choice.plan}`);
  say(io, `project ${slug} is now on plan ${choice.plan}; its keys follow on their next request`);
}

export async function runProjects(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'projects', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action, ...positionals] = parsed.positionals;
  if (!['create', 'list', 'set-plan'].includes(action ?? '')) {
    throw new UsageError(
      action ? `unknown projects command "${action}"; run "petstore projects --help"` : HELP,
    );
  }
  // The words are checked before the database is opened: a usage error changes nothing.
  const newProject = action === 'create' ? readNewProject(parsed.values) : undefined;
  const choice = action === 'set-plan' ? readPlanChoice(parsed.values) : undefined;
  if (action === 'set-plan' && positionals.length !== 1)
    throw new UsageError('projects set-plan takes one project slug');
  const paging = {
    json: parsed.values.json === true,
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), MAX_PAGE_SIZE),
    after: decodeCursor('projects list', stringOption(parsed, 'cursor'), (value) =>
      typeof value === 'string' && value.length <= 100 ? value : undefined,
    ),
    all: parsed.values.all === true,
  };
  const flag = stringOption(parsed, 'database');
  const { storage } = await openServerDatabase(io, flag);
  try {
    if (newProject) await create(io, storage, newProject, parsed.values.json === true);
    else if (action === 'list') await list(io, storage, paging);
    else await setPlan(io, storage, positionals[0]!, choice!);
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
