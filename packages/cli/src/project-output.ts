import { stringifyJson } from '@petstore/json';
import { type CliIo, say } from './io.ts';
import { decodeCursor, type PageOptions, type Pager, printPages } from './paged-output.ts';
import { formatInstant } from './table.ts';

/**
 * A project as `projects list` and `projects get` print it, whichever mode read it: the management
 * API's Project object (the database mode makes the same with projectJson, the operator being an
 * owner of every project). `--json` prints it as it is.
 */
export interface ProjectView {
  slug: string;
  name: string;
  plan: string;
  role: string;
  /** The plan's limits (int64 in the API's answers, numbers from the database). */
  limits: { perMinute: number | bigint; perDay: number | bigint };
  createdAt: string;
}

function limitsText(project: ProjectView): string {
  const { perMinute, perDay } = project.limits;
  return project.plan === 'enterprise' ? `${perMinute}/min ${perDay}/day` : '';
}

/** Projects by slug: a table (SLUG, PLAN, LIMITS, CREATED, NAME) or a JSON array, paged. */
export function printProjects(io: CliIo, pager: Pager<ProjectView>, options: PageOptions): Promise<void> {
  return printPages<ProjectView>(
    io,
    {
      command: 'petstore projects list',
      pager,
      columns: [
        { title: 'SLUG' },
        { title: 'PLAN' },
        { title: 'LIMITS' },
        { title: 'CREATED' },
        { title: 'NAME' },
      ],
      row: (p) => [p.slug, p.plan, limitsText(p), formatInstant(Date.parse(p.createdAt), ''), p.name],
      record: (project) => stringifyJson(project),
      empty:
        'no projects; create one with: petstore projects create --name "Acme Docs" --slug acme --plan free',
    },
    options,
  );
}

/** `projects list --cursor`: a slug, as printed by a listing; read before anything is opened. */
export function readProjectsCursor(text: string | undefined): string | undefined {
  return decodeCursor('projects list', text, (value) =>
    typeof value === 'string' && value.length <= 100 ? value : undefined,
  );
}

/** One project (`projects get`): a one-row table, or one JSON object. */
export async function printProject(io: CliIo, project: ProjectView, json: boolean): Promise<void> {
  if (json) say(io, stringifyJson(project));
  else await printProjects(io, async () => ({ items: [project], next: undefined }), { json, all: false });
}
