import type { RouteHandlerMethod } from 'fastify';
import { nameProblem } from '../projects/project-rules.ts';
import type { DashboardContext } from './context.ts';
import { field } from './form-body.ts';
import { projectView } from './views/project.ts';
import { projectsView } from './views/projects.ts';

/** The list of the account's projects and a project's overview. */
export function projectPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, siteUrl } = context;
  return {
    async projectsPage(request, reply) {
      const projects = await storage.projects.listForAccount(request.signedIn!.account.id);
      const main = projectsView(projects, (slug) => siteUrl(request, slug));
      return context.page(request, reply, 'Projects', main);
    },
    async projectPage(request, reply) {
      const project = context.memberProject(request);
      const { saved } = request.query as { saved?: string };
      const main = projectView({
        project,
        siteUrl: siteUrl(request, project.slug),
        csrfToken: context.signedIn(request).csrfToken,
        saved: saved !== undefined,
      });
      return context.page(request, reply, project.name, main);
    },
    async renameProject(request, reply) {
      const project = context.memberProject(request);
      const name = field(request.body, 'name').trim();
      const problem = nameProblem(name);
      if (problem) {
        const main = projectView({
          project,
          siteUrl: siteUrl(request, project.slug),
          csrfToken: context.signedIn(request).csrfToken,
          problem,
          name,
        });
        return context.page(request, reply, project.name, main, 400);
      }
      await storage.projects.rename(project.slug, name);
      return reply.redirect(`/dashboard/projects/${project.slug}?saved`, 303);
    },
  };
}
