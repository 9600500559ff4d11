import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { parseHostHeader } from '../../http/host-name.ts';

/** What the ask reads of the host directory (features/domains/sites/host-directory.ts). */
export interface ServedHosts {
  isServiceOwn(hostname: string): boolean;
  resolve(hostname: string): Promise<{ kind: string }>;
}

/**
 * The TLS proxy's question before it gets a certificate on demand (Caddy's `on_demand_tls ask`):
 * `GET /internal/tls/ask?domain=<host>` is 200 for a project's default host and for a verified custom
 * domain of a project on a paid plan, else 404 (the API host has its own certificate). Answered by
 * the host directory (an indexed lookup, cached, every committed change read before a yes), never a
 * DNS lookup: a certificate is only ever requested for a name that is served right now.
 */
export function tlsAsk(hosts: ServedHosts): RouteHandlerMethod {
  const allowed = async (host: string): Promise<boolean> =>
    // An IP address, localhost or the API host is never a site, whatever an older version may have stored.
    !hosts.isServiceOwn(host) && (await hosts.resolve(host)).kind === 'site';
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
