import type { ManageApi } from './manage-session.ts';
import type { CliIo } from './io.ts';
import { encodeCursor, type PageOptions } from './paged-output.ts';
import { printProject, printProjects, readProjectsCursor } from './project-output.ts';

/**
 * `projects list` and `projects get <slug>` through the management API. The API lists a token's
 * projects in one answer; they are paged here by slug, with the same cursors as the database mode.
 */
export async function runProjectsApi(
  io: CliIo,
  api: ManageApi,
  slug: string | undefined,
  options: PageOptions,
): Promise<void> {
  if (slug !== undefined) {
    const { data } = await api.run((client) => client.get('/projects/{slug}', { path: { slug } }));
    await printProject(io, data, options.json);
    return;
  }
  const { data } = await api.run((client) => client.get('/projects'));
  const projects = data.data.toSorted((a, b) => (a.slug < b.slug ? -1 : 1));
  await printProjects(
    io,
    async (cursor, limit) => {
      const after = readProjectsCursor(cursor) ?? '';
      const rest = projects.filter((project) => project.slug > after);
      const items = rest.slice(0, limit);
      return { items, next: rest.length > limit ? encodeCursor(items.at(-1)!.slug) : undefined };
    },
    options,
  );
}
