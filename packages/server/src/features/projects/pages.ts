import { urlFor } from '../shared/urls.ts';
import { memberOf } from '../members/page-roles.ts';
import { signedInOf } from '../identity/session-cookie.ts';
import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import { isPaid } from './rules.ts';
import { requestScheme } from '../../http/scheme.ts';
import { portSuffix } from '../domains/sites/urls.ts';
import type { Project } from './project-repository.ts';
import { dashboardActor } from '../identity/page-actor.ts';
import { type DashboardContext } from '../shared/dashboard-context.ts';
import { apiOrigin } from '../shared/page.ts';
import { field } from '../../web/form-body.ts';
import { usagePeriods } from '../requests/usage-series.ts';
import { projectView } from './view.ts';
import { projectsView } from './list-view.ts';
import { requireTwoFactorSection } from '../identity/two-factor-view.ts';

/** The list of the account's projects and a project's overview. */
export function projectPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, siteUrl } = context;
  /**
   * Where the project's docs site answers without a redirect: its primary custom domain when it has
   * one (every other host, the default one included, redirects there), else its default host.
   */
  const publishedAt = async (request: FastifyRequest, project: Project) => {
    const primary = isPaid(project) ? await storage.domains.primaryOf(project.id) : undefined;
    const fallback = siteUrl(request, project.slug);
    return primary
      ? { url: `${requestScheme(request)}://${primary}${portSuffix(request)}/`, redirecting: fallback }
      : { url: fallback };
  };
  return {
    async projectsPage(request, reply) {
      const projects = await storage.projects.listForAccount(signedInOf(request).account.id);
      const sites = await Promise.all(projects.map((project) => publishedAt(request, project)));
      const main = projectsView(projects, (index) => sites[index]!.url);
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
      const { csrfToken } = context.signedIn(request);
      const flash = await context.flashes.take(request, urlFor('projectPage', { slug: project.slug }));
      const main = projectView({
        usage: { hourly: hourly!, daily: daily! },
        project,
        site: await publishedAt(request, project),
        apiBase: apiOrigin(request),
        csrfToken,
        canWrite: role === 'owner',
        flash,
        twoFactor: requireTwoFactorSection({
          project,
          required: await context.sessions.twoFactor.required(project.id),
          canWrite: role === 'owner',
          csrfToken,
          problem: flash.twoFactorProblem,
        }),
      });
      return context.page(request, reply, project.name, main);
    },
    async renameProject(request, reply) {
      const project = context.memberProject(request);
      const page = urlFor('projectPage', { slug: project.slug });
      const name = field(request.body, 'name').trim();
      const renamed = await context.projects.rename(dashboardActor(request), project.slug, name);
      if (!renamed.ok) {
        await context.flashes.put(request, page, { problem: renamed.problem.message, values: { name } });
      } else {
        await context.flashes.put(request, page, { notice: 'Saved.' });
      }
      return context.back(reply, page);
    },
  };
}
