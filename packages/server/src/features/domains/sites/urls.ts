import type { FastifyRequest } from 'fastify';
import { requestScheme } from '../../../http/scheme.ts';

/** `:8080` when the request came to a port other than the scheme's default, else ''. */
export function portSuffix(request: FastifyRequest): string {
  const port = /:(\d+)$/.exec(request.host)?.[1];
  const standard = requestScheme(request) === 'https' ? '443' : '80';
  return port && port !== standard ? `:${port}` : '';
}

/** A project's docs site, as a browser that reached this request should open it (same scheme and port). */
export function siteUrl(request: FastifyRequest, slug: string, siteDomain: string): string {
  return `${requestScheme(request)}://${slug}.${siteDomain}${portSuffix(request)}/`;
}

/**
 * Where a docs site's try-it sends requests: PUBLIC_BASE_URL's origin when it is set, else the API
 * host (or `localhost`) with this request's scheme and port.
 */
export function apiOrigin(
  request: FastifyRequest,
  publicBaseUrl: string | undefined,
  apiHost: string | undefined,
): string {
  if (publicBaseUrl) return new URL(publicBaseUrl).origin;
  return `${requestScheme(request)}://${apiHost ?? 'localhost'}${portSuffix(request)}`;
}
