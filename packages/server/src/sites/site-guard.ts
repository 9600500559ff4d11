import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { normalizeHost } from './hosts.ts';
import type { Site, SiteDirectory } from './site-directory.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The docs site the request's host serves (set by the guard on `site` routes). */
    site?: Site;
  }
}

/** The guard's step for `site` routes: the site this host serves, or 404 (never another project's site). */
export async function requireSite(request: FastifyRequest, sites: SiteDirectory): Promise<void> {
  const site = await sites.resolve(normalizeHost(request.headers.host));
  if (!site) throw new ApiError('not_found', 'no docs site is published at this address');
  request.site = site;
}
