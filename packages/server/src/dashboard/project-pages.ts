import { urlFor } from '../routes/urls.ts';
import { memberOf } from './roles.ts';
import { signedInOf } from './session-cookie.ts';
import type { RouteHandlerMethod } from 'fastify';
import { nameProblem } from '../projects/project-rules.ts';
import { type DashboardContext } from './context.ts';
import { apiOrigin } from './page.ts';
import { field } from '../web/form-body.ts';
import { usagePeriods } from '../insights/usage-series.ts';
import { projectView } from './views/project.ts';
import { projectsView } from './views/projects.ts';

/** The list of the account's projects and a project's overview. */
export function projectPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, siteUrl } = context;
  return {
    async projectsPage(request, reply) {
      const projects = await storage.projects.listForAccount(signedInOf(request).account.id);
      const main = projectsView(projects, (slug) => siteUrl(request, slug));
      return context.page(request, reply, 'Projects', main);
    },
    async projectPage(request, reply) {
      const { project, role } = memberOf(request);
      await context.settleRequestLog();
      const now = context.clock.now();
      const [hourly, daily] = await Promise.all(
        (['hour', 'day'] as const).map((step) =>
          usagePeriods(storage.requestLog, { projectId: project.id, step, now }),
        ),
      );
      const main = projectView({
        usage: { hourly: hourly!, daily: daily! },
        project,
        siteUrl: siteUrl(request, project.slug),
        apiBase: apiOrigin(request),
        csrfToken: context.signedIn(request).csrfToken,
        canWrite: role === 'owner',
        flash: await context.flashes.take(request, urlFor('projectPage', { slug: project.slug })),
      });
      return context.page(request, reply, project.name, main);
    },
    async renameProject(request, reply) {
      const project = context.memberProject(request);
      const page = urlFor('projectPage', { slug: project.slug });
      const name = field(request.body, 'name').trim();
      const problem = nameProblem(name);
      if (problem) {
        await context.flashes.put(request, page, { problem, values: { name } });
      } else {
        await storage.projects.rename(project.slug, name);
        await context.audit(request, 'project_renamed', `${project.name} → ${name}`);
        await context.flashes.put(request, page, { notice: 'Saved.' });
      }
      return context.back(reply, page);
    },
  };
}
