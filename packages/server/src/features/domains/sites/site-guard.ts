import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../errors.ts';
import { normalizeHost } from '../../../http/host-kind.ts';
import type { HostDirectory, Site } from './host-directory.ts';
import { preparedAnswer } from './host-routing.ts';
import { portSuffix } from './urls.ts';
import { requestScheme } from '../../../http/scheme.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The docs site the request's host serves (set by the guard on `site` routes). */
    site?: Site;
  }
}

/** The site of a `site` route: the guard has found it before any handler runs. */
export function siteOf(request: FastifyRequest): Site {
  if (!request.site) throw new Error('a site route ran without the guard’s site check');
  return request.site;
}

/** How long browsers may keep a redirect to the primary domain: a new primary is followed within 5 minutes. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=300';

/**
 * The guard's step for `site` routes: the site this host serves, or 404 (never another project's site);
 * a host that is not the project's primary domain is answered 301 to the same path there.
 */
export async function requireSite(
  request: FastifyRequest,
  reply: FastifyReply,
  directory: HostDirectory,
): Promise<void> {
  // Looked up by the dispatch just now for a custom domain; a default host (or a cached name) here.
  const host = normalizeHost(request.headers.host);
  const answer = preparedAnswer(request.raw, host) ?? (await directory.resolve(host));
  const site = answer.kind === 'site' ? answer.site : undefined;
  if (!site) throw new ApiError('not_found', 'no docs site is published at this address');
  if (site.redirectTo) {
    // request.url is origin-form (see rewriteRequestTarget): a path and query, never an authority.
    reply.header('cache-control', REDIRECT_CACHE_CONTROL);
    reply.redirect(`${requestScheme(request)}://${site.redirectTo}${portSuffix(request)}${request.url}`, 301);
    return;
  }
  request.site = site;
}
