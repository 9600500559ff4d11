import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import { siteOf } from '../features/domains/sites/site-guard.ts';
import { docsPage } from '../docs/page.ts';
import { ApiError } from '../errors.ts';
import { getDocsAsset } from './docs.ts';
import { sendStaticAsset } from '../web/static-asset.ts';
import { apiOrigin } from '../features/domains/sites/urls.ts';

export interface SiteRouteDeps {
  publicBaseUrl: string | undefined;
  apiHost: string | undefined;
}

/**
 * What a project's docs site serves (on its default host, and in time its custom domains): the API
 * reference at `/`, titled with the project's name, its files, and a page-shaped 404 for anything else.
 * The guard has already found the site from the host (`request.site`), or answered 404.
 */
export function siteHandlers(deps: SiteRouteDeps): Record<string, RouteHandlerMethod> {
  const siteDocs: RouteHandlerMethod = async (request: FastifyRequest, reply) => {
    const page = docsPage({
      title: siteOf(request).project.name,
      apiOrigin: apiOrigin(request, deps.publicBaseUrl, deps.apiHost),
      edition: 'site',
    });
    return sendStaticAsset(request, reply, page);
  };
  const notFound: RouteHandlerMethod = async (request) => {
    throw new ApiError('not_found', `there is no page at ${request.url.split('?', 1)[0]}`);
  };
  return { getSiteDocs: siteDocs, getSiteDocsAsset: getDocsAsset, siteNotFound: notFound };
}
