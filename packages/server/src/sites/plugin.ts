import type { ErrorPage } from '../http/error-handler.ts';
import type { AreaChecks } from '../http/guard.ts';
import { type Area, registerAreaRoutes } from '../routes/area.ts';
import { lazyHandlers } from '../routes/lazy-handlers.ts';
import { NON_CONTRACT_ROUTES } from '../routes/table.ts';
import type { Storage } from '../storage/repository.ts';
import { createSiteDirectory } from './site-directory.ts';
import { sendSiteErrorPage } from './site-error-page.ts';
import { requireSite } from './site-guard.ts';
import { createSiteHosts, type SiteHosts } from './site-hosts.ts';

export interface SitesAreaDeps {
  storage: Pick<Storage, 'projects' | 'domains'>;
  siteDomain: string;
  /** Where the sites' try-it sends requests (PUBLIC_BASE_URL). */
  publicBaseUrl?: string;
  apiHost?: string;
  /** How often the host sets are read again (default SITE_HOSTS_REFRESH_MS). */
  refreshMs?: number;
}

export interface SitesArea extends Area {
  /** Which hosts are sites, and their origins, from memory: the router and CORS read them. */
  hosts: SiteHosts;
  /** Whether a site is published at `hostname` now, from the database. */
  publishedAt(hostname: string): Promise<boolean>;
  /** The guard's check of the sites' routes. */
  checks: Pick<AreaChecks, 'site'>;
  errorPage: ErrorPage;
}

/**
 * The projects' docs sites: which host serves which site, the guard's check that finds it (or answers
 * 404 or the redirect to the primary domain), their pages (imported on their first request, see
 * lazyHandlers) and their error pages.
 */
export function createSitesArea(deps: SitesAreaDeps): SitesArea {
  const where = {
    projects: deps.storage.projects,
    domains: deps.storage.domains,
    siteDomain: deps.siteDomain,
  };
  const hosts = createSiteHosts({ ...where, refreshMs: deps.refreshMs });
  const directory = createSiteDirectory(where);
  const operationIds = NON_CONTRACT_ROUTES.filter((route) => route.config.host === 'site').map(
    (route) => route.config.operationId,
  );
  const others = lazyHandlers(operationIds, async () =>
    (await import('./site-routes.ts')).siteHandlers({
      publicBaseUrl: deps.publicBaseUrl,
      apiHost: deps.apiHost,
    }),
  );
  return {
    hosts,
    publishedAt: async (hostname) => (await directory.resolve(hostname)) !== undefined,
    others,
    checks: { site: (request, reply) => requireSite(request, reply, directory) },
    errorPage: sendSiteErrorPage,
    plugin(app, options, done) {
      app.addHook('onClose', async () => hosts.close());
      registerAreaRoutes(app, options, { others });
      done();
    },
  };
}
