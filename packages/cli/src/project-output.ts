import type { ManagedProject } from './api-client.ts';
import { type CliIo, say } from './io.ts';
import { decodeCursor, type PageOptions, type Pager, printPages } from './paged-output.ts';
import { formatInstant } from './table.ts';

/**
 * A project as `projects list` and `projects get` print it, whichever mode read it: the database's
 * record (with its id), or the management API's (with the token's role in it). `--json` prints these
 * fields.
 */
export interface ProjectView {
  id?: string;
  slug: string;
  name: string;
  plan: string;
  /** An enterprise project's own limits; null on the other plans, whose limits are fixed. */
  perMinute: number | null;
  perDay: number | null;
  createdAt: number;
  role?: string;
}

export const projectViewOf = (project: ProjectView): ProjectView => project;

/** The management API's project as the database mode prints it. */
export function apiProjectView(project: ManagedProject): ProjectView {
  const enterprise = project.plan === 'enterprise';
  return {
    slug: project.slug,
    name: project.name,
    plan: project.plan,
    perMinute: enterprise ? Number(project.limits.perMinute) : null,
    perDay: enterprise ? Number(project.limits.perDay) : null,
    createdAt: Date.parse(project.createdAt),
    role: project.role,
  };
}

function limitsText(project: ProjectView): string {
  return project.plan === 'enterprise' ? `${project.perMinute}/min ${project.perDay}/day` : '';
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
      row: (p) => [p.slug, p.plan, limitsText(p), formatInstant(p.createdAt, ''), p.name],
      record: (project) => JSON.stringify(project),
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
  if (json) say(io, JSON.stringify(project));
  else await printProjects(io, async () => ({ items: [project], next: undefined }), { json, all: false });
}
