import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sentence } from './rules.ts';
import { isPaid } from '../projects/rules.ts';
import type { Actor } from '../shared/actor.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { urlFor } from '../shared/urls.ts';
import type { Project } from '../projects/project-repository.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { field } from '../../web/form-body.ts';
import { checkedNotice, type DomainNotice, domainNotice, domainsView, removeDomainView } from './view.ts';

/**
 * A project's custom domains: the list, adding one, checking it now, making it primary, removing it,
 * each through the domains service as the signed-in account.
 */
export function domainPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const actorOf = (request: FastifyRequest): Actor => {
    const { account } = context.signedIn(request);
    return { kind: 'account', accountId: account.id, email: account.email, address: request.ip };
  };
  const domainsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    extra: Partial<Parameters<typeof domainsView>[0]> = {},
    status = 200,
  ) => {
    const domains = await Promise.all(
      valueOrThrow(await context.domains.all(actorOf(request), project.slug)).map(async (domain) => ({
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
  const hostnameOf = (request: FastifyRequest) => (request.params as { hostname: string }).hostname;
  /** A refusal shown once on the domains page (post/redirect/get). */
  const refusedBack = async (
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    problem: string,
  ) => {
    const page = urlFor('domainsPage', { slug: project.slug });
    await context.flashes.put(request, page, { problem });
    return context.back(reply, page);
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
      const outcome = await context.domains.add(actorOf(request), project.slug, hostname);
      if (!outcome.ok) {
        if (outcome.problem.code === 'not_found' || outcome.problem.code === 'forbidden')
          valueOrThrow(outcome);
        // Below Pro the page's own explanation (the form is disabled) says it, so it is not repeated.
        const page = urlFor('domainsPage', { slug: project.slug });
        await context.flashes.put(
          request,
          page,
          isPaid(project)
            ? { problem: sentence(outcome.problem.message), values: { hostname } }
            : { values: { hostname } },
        );
        return context.back(reply, page);
      }
      request.log.info(
        { domain: outcome.value.hostname, project: project.slug, state: outcome.value.state },
        'custom domain added',
      );
      return backToDomains(reply, project, 'added', outcome.value.hostname);
    },
    async checkDomain(request, reply) {
      const project = context.memberProject(request);
      const checked = await context.domains.check(actorOf(request), project.slug, hostnameOf(request));
      if (!checked.ok && checked.problem.code === 'rate_limited')
        return refusedBack(request, reply, project, sentence(checked.problem.message));
      const domain = valueOrThrow(checked);
      return backToDomains(reply, project, checkedNotice(domain), domain.hostname);
    },
    async makePrimary(request, reply) {
      const project = context.memberProject(request);
      const made = await context.domains.makePrimary(actorOf(request), project.slug, hostnameOf(request));
      if (!made.ok && made.problem.code === 'conflict')
        return refusedBack(request, reply, project, `${made.problem.message}.`);
      return backToDomains(reply, project, 'primary', valueOrThrow(made).hostname);
    },
    async removeDomainPage(request, reply) {
      const project = context.memberProject(request);
      const hostname = hostnameOf(request);
      const domains = valueOrThrow(await context.domains.all(actorOf(request), project.slug));
      if (!domains.some((domain) => domain.hostname === hostname))
        valueOrThrow({
          ok: false,
          problem: { code: 'not_found', message: `${hostname} is not a domain of this project` },
        });
      return context.page(
        request,
        reply,
        `Remove a domain · ${project.name}`,
        removeDomainView(project, hostname, context.signedIn(request).csrfToken),
      );
    },
    async removeDomain(request, reply) {
      const project = context.memberProject(request);
      const removed = valueOrThrow(
        await context.domains.remove(actorOf(request), project.slug, hostnameOf(request)),
      );
      request.log.info({ domain: removed.hostname, project: project.slug }, 'custom domain removed');
      return backToDomains(reply, project, 'removed', removed.hostname);
    },
  };
}
