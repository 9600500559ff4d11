import type { ErrorPage } from '../http/error-handler.ts';
import type { AreaChecks } from '../http/guard.ts';
import type { ServiceNames } from '../http/service-names.ts';
import { type Area, registerAreaRoutes } from './area.ts';
import { lazyHandlers } from './lazy-handlers.ts';
import { NON_CONTRACT_ROUTES } from './table.ts';
import type { Store } from '../features/store.ts';
import type { Clock } from '../time/clock.ts';
import { type ChangeFeed, createChangeFeed } from '../changes/feed.ts';
import { createHostDirectory, type HostDirectory } from '../features/domains/sites/host-directory.ts';
import { createHostRouting, type HostRouting } from '../features/domains/sites/host-routing.ts';
import { sendSiteErrorPage } from '../features/domains/sites/site-error-page.ts';
import { requireSite } from '../features/domains/sites/site-guard.ts';

export interface SitesAreaDeps {
  storage: Pick<Store, 'projects' | 'domains' | 'changes' | 'changeToken' | 'listenForChanges'>;
  names: ServiceNames;
  clock: Clock;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Where the sites' try-it sends requests (PUBLIC_BASE_URL). */
  publicBaseUrl?: string;
  /** How often the change feed is read without being told (default CHANGE_POLL_MS). */
  changePollMs?: number;
}

export interface SitesArea extends Area {
  /** What each host serves: looked up when asked for, cached, kept current by the change feed. */
  directory: HostDirectory;
  /** What the router and CORS read synchronously, prepared by the dispatch. */
  routing: HostRouting;
  feed: ChangeFeed;
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
  const { storage } = deps;
  const feed = createChangeFeed({
    changes: storage.changes,
    changeToken: () => storage.changeToken(),
    listen: storage.listenForChanges && ((handlers) => storage.listenForChanges!(handlers)),
    clock: deps.clock,
    log: deps.log,
    pollMs: deps.changePollMs,
  });
  const directory = createHostDirectory({
    projects: storage.projects,
    domains: storage.domains,
    names: deps.names,
    feed,
  });
  const routing = createHostRouting({ directory, names: deps.names, log: deps.log });
  const operationIds = NON_CONTRACT_ROUTES.filter((route) => route.config.host === 'site').map(
    (route) => route.config.operationId,
  );
  const others = lazyHandlers(operationIds, async () =>
    (await import('./site-routes.ts')).siteHandlers({
      publicBaseUrl: deps.publicBaseUrl,
      apiHost: deps.names.apiHosts[0],
    }),
  );
  return {
    directory,
    routing,
    feed,
    others,
    checks: { site: (request, reply) => requireSite(request, reply, directory) },
    errorPage: sendSiteErrorPage,
    plugin(app, options, done) {
      app.addHook('onClose', async () => feed.close());
      registerAreaRoutes(app, options, { others });
      done();
    },
  };
}
