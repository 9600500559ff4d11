import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import { parseHostHeader } from '../hosts/host-name.ts';
import { ownNameKind } from '../hosts/service-names.ts';
import { SLUG } from '../projects/project-rules.ts';
import type { DomainRepository } from '../storage/domain-repository.ts';
import type { ProjectRepository } from '../storage/project-repository.ts';
import { isPaid } from './domain-service.ts';

/**
 * The TLS proxy's question before it gets a certificate on demand (Caddy's `on_demand_tls ask`):
 * `GET /internal/tls/ask?domain=<host>` is 200 for a project's default host and for a verified custom
 * domain of a project on a paid plan, else 404 (the API host has its own certificate). One indexed
 * query, never a DNS lookup: a certificate is only ever requested for a name that is served right now.
 */
export function tlsAsk(deps: {
  projects: ProjectRepository;
  domains: DomainRepository;
  siteDomain: string;
}): RouteHandlerMethod {
  const suffix = `.${deps.siteDomain}`;
  const allowed = async (host: string): Promise<boolean> => {
    // An IP address or localhost is never a site, whatever an older version may have stored.
    if (ownNameKind(host, { siteDomain: deps.siteDomain, apiHosts: [] }) === 'api') return false;
    if (host.endsWith(suffix)) {
      const slug = host.slice(0, -suffix.length);
      return SLUG.test(slug) && (await deps.projects.bySlug(slug)) !== undefined;
    }
    const domain = await deps.domains.get(host);
    if (!domain || domain.state !== 'verified') return false;
    const project = await deps.projects.byId(domain.projectId);
    return project !== undefined && isPaid(project);
  };
  return async (request, reply) => {
    const { domain } = request.query as { domain?: unknown };
    if (typeof domain !== 'string' || domain.length === 0 || domain.length > 253) {
      throw new ApiError('invalid_parameter', 'domain must be the host name the certificate is for', {
        param: 'domain',
      });
    }
    const host = parseHostHeader(domain)?.hostname;
    if (host === undefined || !(await allowed(host)))
      throw new ApiError('not_found', `no certificate is to be issued for ${host ?? domain}`);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('{"allowed":true}');
  };
}
