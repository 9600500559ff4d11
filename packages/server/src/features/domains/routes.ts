import type { RouteHandlerMethod } from 'fastify';
import { tokenActorOf } from '../access-tokens/check.ts';
import { pageQuery, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { domainJson } from './json.ts';
import { DOMAIN_PAGE, type DomainsService } from './service.ts';

/** The management API's custom-domain operations (openapi/manage.yaml, tag Domains), on the domains service. */
export function domainRoutes(domains: DomainsService): Record<string, RouteHandlerMethod> {
  const params = (request: { params: unknown }) => request.params as { slug: string; hostname: string };
  return {
    async listDomains(request, reply) {
      const { slug } = params(request);
      const page = pageQuery(request.query as Record<string, unknown>, DOMAIN_PAGE.maxLimit);
      const listed = valueOrThrow(await domains.list(tokenActorOf(request), slug, page));
      return sendJson(reply, 200, { ...listed, data: listed.data.map(domainJson) });
    },
    async createDomain(request, reply) {
      const { slug } = params(request);
      const { hostname } = request.body as { hostname: string };
      const added = valueOrThrow(await domains.add(tokenActorOf(request), slug, hostname));
      return sendJson(reply, 201, domainJson(added));
    },
    async checkDomainNow(request, reply) {
      const { slug, hostname } = params(request);
      return sendJson(
        reply,
        200,
        domainJson(valueOrThrow(await domains.check(tokenActorOf(request), slug, hostname))),
      );
    },
    async makeDomainPrimary(request, reply) {
      const { slug, hostname } = params(request);
      const made = valueOrThrow(await domains.makePrimary(tokenActorOf(request), slug, hostname));
      return sendJson(reply, 200, domainJson(made));
    },
    async deleteDomain(request, reply) {
      const { slug, hostname } = params(request);
      return sendJson(
        reply,
        200,
        domainJson(valueOrThrow(await domains.remove(tokenActorOf(request), slug, hostname))),
      );
    },
  };
}
