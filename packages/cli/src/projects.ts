import { createProjectService } from '@petstore/server/features/projects/service.ts';
import { nameProblem, planProblem, slugProblem } from '@petstore/server/features/projects/rules.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import type { Plan } from '@petstore/server/storage/records.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { projectJson } from '@petstore/server/features/projects/json.ts';
import type { Project } from '@petstore/server/features/projects/project-repository.ts';
import { openServerDatabase } from './database.ts';
import { EXIT, refusalError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { databasePager, MAX_PAGE_SIZE, type PageOptions } from './paged-output.ts';
import { printProject, printProjects, type ProjectView, readProjectsCursor } from './project-output.ts';
import { runProjectsApi } from './projects-api.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore projects <create|list|get|set-plan> [options]

  projects create --name "Acme Docs" --slug acme --plan free|pro|business|enterprise
                  [--per-minute N --per-day N] [--json]
      A project owns API keys (its plan sets their limits) and a docs site at <slug>.<PETSTORE_SITE_DOMAIN>.
      The slug is 1 to 40 lower-case letters, digits and inner dashes; enterprise needs --per-minute and --per-day.
  projects list [--limit N] [--cursor C] [--all] [--json]
                               Projects by slug with their plan and limits: one page of --limit
                               (default 100, at most 10000), the next page's --cursor on stderr;
                               --all prints every project, page after page, in constant memory.
  projects get <slug> [--json] One project: its plan, limits, creation and name.
  projects set-plan <slug> --plan P [--per-minute N --per-day N]
                               Changes the plan; every key of the project follows on its next request.

  list and get are the project's: on the database (every project), or through the management API with
  a token (the token's projects, with its role). create and set-plan are the operator's own, on the
  database alone. A taken slug is status 6, an unknown one 3.

${MODE_HELP}`;

const OPTIONS = {
  name: { type: 'string' },
  slug: { type: 'string' },
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  json: { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  ...MODE_OPTIONS,
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

interface NewProject {
  slug: string;
  name: string;
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
}

/** Everything `projects create` was asked for, checked before the database is opened. */
function readNewProject(values: Values): NewProject {
  const name = required(values, 'name').trim();
  const slug = required(values, 'slug');
  const problem = slugProblem(slug) ?? nameProblem(name);
  if (problem) throw new UsageError(problem.replace(/^the (slug|name)/, '--$1'));
  return { slug, name, ...readPlanChoice(values) };
}

/** A project as the operator sees it: an owner of every project, as the projects service says. */
const operatorView = (project: Project): ProjectView => projectJson({ project, role: 'owner' });

const service = (storage: Store) => createProjectService({ storage, clock: systemClock });

async function create(io: CliIo, storage: Store, input: NewProject, json: boolean): Promise<void> {
  const outcome = await service(storage).create(OPERATOR, input);
  if (!outcome.ok) throw refusalError(outcome.problem);
  const project = outcome.value;
  if (json) say(io, JSON.stringify(project));
  else say(io, `created project ${project.slug} ("${project.name}", plan ${project.plan})`);
}

/** `projects list`: one page by slug, or with --all every project in constant memory (printPages). */
async function list(io: CliIo, storage: Store, options: PageOptions): Promise<void> {
  await printProjects(
    io,
    databasePager(
      async (after: string | undefined, limit) =>
        (await storage.projects.listPage(after, limit)).map(operatorView),
      (view: ProjectView) => view.slug,
      readProjectsCursor,
    ),
    options,
  );
}

async function get(io: CliIo, storage: Store, slug: string, json: boolean): Promise<void> {
  const outcome = await service(storage).get(OPERATOR, slug);
  if (!outcome.ok) throw refusalError({ ...outcome.problem, message: `no project with slug ${slug}` });
  await printProject(io, projectJson(outcome.value), json);
}

async function setPlan(
  io: CliIo,
  storage: Store,
  slug: string,
  choice: ReturnType<typeof readPlanChoice>,
): Promise<void> {
  const outcome = await service(storage).setPlan(OPERATOR, slug, choice);
  if (!outcome.ok) throw refusalError(outcome.problem);
  say(io, `project ${slug} is now on plan ${choice.plan}; its keys follow on their next request`);
}

export async function runProjects(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'projects', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action, ...positionals] = parsed.positionals;
  if (!['create', 'list', 'get', 'set-plan'].includes(action ?? '')) {
    throw new UsageError(
      action ? `unknown projects command "${action}"; run "petstore projects --help"` : HELP,
    );
  }
  // The words are checked before anything is opened: a usage error changes nothing.
  const newProject = action === 'create' ? readNewProject(parsed.values) : undefined;
  const choice = action === 'set-plan' ? readPlanChoice(parsed.values) : undefined;
  if ((action === 'set-plan' || action === 'get') && positionals.length !== 1)
    throw new UsageError(`projects ${action} takes one project slug`);
  const json = parsed.values.json === true;
  const paging: PageOptions = {
    json,
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), MAX_PAGE_SIZE),
    cursor: stringOption(parsed, 'cursor'),
    all: parsed.values.all === true,
  };
  readProjectsCursor(paging.cursor);
  const operator = action === 'create' || action === 'set-plan' ? `projects ${action}` : undefined;
  const mode = await chooseMode(io, parsed, operator);
  if (mode.kind === 'api') {
    await runProjectsApi(io, mode.api, action === 'get' ? positionals[0]! : undefined, paging);
    return EXIT.ok;
  }
  const { storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    if (newProject) await create(io, storage, newProject, json);
    else if (action === 'list') await list(io, storage, paging);
    else if (action === 'get') await get(io, storage, positionals[0]!, json);
    else await setPlan(io, storage, positionals[0]!, choice!);
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
