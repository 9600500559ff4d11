import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { isPaid, sentence } from '../domains/domain-service.ts';
import { ApiError } from '../errors.ts';
import { urlFor } from '../routes/urls.ts';
import type { Project } from '../storage/project-repository.ts';
import { domainCheckRecord } from '../storage/audit-records.ts';
import type { DashboardContext } from './context.ts';
import { field } from '../web/form-body.ts';
import {
  checkedNotice,
  type DomainNotice,
  domainNotice,
  domainsView,
  removeDomainView,
} from './views/domains.ts';

/** A project's custom domains: the list, adding one, checking it now, making it primary, removing it. */
export function domainPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const domainsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    extra: Partial<Parameters<typeof domainsView>[0]> = {},
    status = 200,
  ) => {
    const domains = await Promise.all(
      (await context.domains.list(project)).map(async (domain) => ({
        ...domain,
        certificate: domain.state === 'verified' ? await context.certificate?.(domain.hostname) : undefined,
      })),
    );
    const main = domainsView({
      project,
      domains,
      target: context.domains.target(project),
      siteUrl: context.siteUrl(request, project.slug),
      canWrite: request.member?.role === 'owner',
      csrfToken: context.signedIn(request).csrfToken,
      ...extra,
    });
    return context.page(request, reply, `Domains · ${project.name}`, main, status);
  };
  /** The hostname in the path, when it is one of this project's domains; else 404. */
  const projectDomain = async (request: FastifyRequest, project: Project): Promise<string> => {
    const { hostname } = request.params as { hostname: string };
    if (!(await context.domains.list(project)).some((domain) => domain.hostname === hostname)) {
      throw new ApiError('not_found', `${hostname} is not a domain of this project`);
    }
    return hostname;
  };
  const backToDomains = (reply: FastifyReply, project: Project, done: DomainNotice, hostname: string) =>
    reply.redirect(
      `${urlFor('domainsPage', { slug: project.slug })}?done=${done}&domain=${encodeURIComponent(hostname)}`,
      303,
    );

  return {
    async domainsPage(request, reply) {
      const project = context.memberProject(request);
      const { done, domain } = request.query as { done?: string; domain?: string };
      const { problem, values } = await context.flashes.take(
        request,
        urlFor('domainsPage', { slug: project.slug }),
      );
      return domainsPage(request, reply, project, {
        notice: domainNotice(done, domain),
        problem,
        hostname: values?.hostname,
      });
    },
    async addDomain(request, reply) {
      const project = context.memberProject(request);
      const hostname = field(request.body, 'hostname');
      const outcome = await context.domains.add(project, hostname);
      if (outcome.kind === 'refused') {
        // Post/redirect/get: the refusal is shown once on the domains page; below Pro the page's own
        // explanation (the form is disabled) says it, so it is not repeated.
        const page = urlFor('domainsPage', { slug: project.slug });
        await context.flashes.put(
          request,
          page,
          isPaid(project)
            ? { problem: sentence(outcome.message), values: { hostname } }
            : { values: { hostname } },
        );
        return context.back(reply, page);
      }
      request.log.info(
        { domain: outcome.domain.hostname, project: project.slug, state: outcome.domain.state },
        'custom domain added',
      );
      await context.audit(request, 'domain_added', outcome.domain.hostname);
      return backToDomains(reply, project, 'added', outcome.domain.hostname);
    },
    async checkDomain(request, reply) {
      const project = context.memberProject(request);
      const hostname = await projectDomain(request, project);
      const checked = (await context.domains.checkNow(project, hostname))!;
      if (checked.kind === 'refused') {
        const page = urlFor('domainsPage', { slug: project.slug });
        await context.flashes.put(request, page, { problem: sentence(checked.message) });
        return context.back(reply, page);
      }
      const { action, target } = domainCheckRecord({ hostname, state: checked.domain.state });
      await context.audit(request, action, target);
      return backToDomains(reply, project, checkedNotice(checked.domain), hostname);
    },
    async makePrimary(request, reply) {
      const project = context.memberProject(request);
      const hostname = await projectDomain(request, project);
      if (!(await context.domains.setPrimary(project, hostname))) {
        const page = urlFor('domainsPage', { slug: project.slug });
        await context.flashes.put(request, page, {
          problem: `${hostname} must be verified before it can be the primary domain.`,
        });
        return context.back(reply, page);
      }
      await context.audit(request, 'domain_primary', hostname);
      return backToDomains(reply, project, 'primary', hostname);
    },
    async removeDomainPage(request, reply) {
      const project = context.memberProject(request);
      const hostname = await projectDomain(request, project);
      return context.page(
        request,
        reply,
        `Remove a domain · ${project.name}`,
        removeDomainView(project, hostname, context.signedIn(request).csrfToken),
      );
    },
    async removeDomain(request, reply) {
      const project = context.memberProject(request);
      const hostname = await projectDomain(request, project);
      await context.domains.remove(project, hostname);
      await context.audit(request, 'domain_removed', hostname);
      request.log.info({ domain: hostname, project: project.slug }, 'custom domain removed');
      return backToDomains(reply, project, 'removed', hostname);
    },
  };
}
