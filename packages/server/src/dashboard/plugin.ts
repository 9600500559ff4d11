import type { ErrorPage } from '../http/error-handler.ts';
import type { AreaChecks } from '../http/guard.ts';
import type { DeferredDomains } from '../features/domains/deferred.ts';
import type { AreaRouterOptions } from '../routes/area-router.ts';
import type { Area } from '../routes/area.ts';
import { lazyArea } from '../routes/lazy-area.ts';
import { NON_CONTRACT_ROUTES, type RouteSpec } from '../routes/table.ts';
import { urlFor } from '../features/shared/urls.ts';
import { installFormBody } from '../web/form-body.ts';
import { sendErrorPage } from './error-page.ts';
import type { DashboardArea, DashboardAreaDeps } from './router.ts';

export type { DashboardAreaDeps } from './router.ts';

/** Where the dashboard is: its home page's path, `/dashboard`. */
const home = () => urlFor('projectsPage');

/** The dashboard's routes: every route of the table at its home or under it. */
export function isDashboardRoute(route: RouteSpec): boolean {
  return route.url === home() || route.url.startsWith(`${home()}/`);
}

export interface DashboardPlugin extends Area {
  /** The guard's checks of the dashboard's routes, run by the loaded area. */
  checks: Pick<AreaChecks, 'session' | 'role' | 'csrf'>;
  errorPage: ErrorPage;
}

/**
 * The dashboard's door, all a start loads of it: two prefix routes, `/dashboard` and `/dashboard/*`,
 * in a scope that also reads forms, whose first request imports the area (router.ts) and its checks;
 * and its error pages, which its routes' errors are answered with.
 */
export interface DashboardPluginDeps extends Omit<DashboardAreaDeps, 'domains'> {
  /** Custom domains: the service is imported with the area. */
  domains: DeferredDomains;
  /** Read when the area is loaded: the application router's options and its 404. */
  routing: () => AreaRouterOptions;
}

export function createDashboardPlugin(deps: DashboardPluginDeps): DashboardPlugin {
  let loaded: DashboardArea | undefined;
  const area = lazyArea({
    prefixes: [home(), `${home()}/*`],
    // Only while the area cannot be imported: a page (500) counted like the dashboard's pages.
    config: {
      operationId: 'dashboardArea',
      access: 'public',
      rateLimited: true,
      addressBudget: 'public',
      metricsLabel: 'dashboard',
      htmlErrors: true,
    },
    async load() {
      const [{ createDashboardArea }, domains] = await Promise.all([
        import('./router.ts'),
        deps.domains.service(),
      ]);
      loaded = createDashboardArea(
        { ...deps, domains },
        NON_CONTRACT_ROUTES.filter(isDashboardRoute),
        deps.routing(),
      );
      return loaded.router;
    },
  });
  const checks = (): DashboardArea['checks'] => {
    if (!loaded) throw new Error('a dashboard check before the dashboard was loaded');
    return loaded.checks;
  };
  return {
    checks: {
      session: (request) => checks().session(request),
      role: (request, role) => checks().role(request, role),
      csrf: (request) => checks().csrf(request),
    },
    errorPage: sendErrorPage,
    plugin(app, _options, done) {
      installFormBody(app);
      area.register(app);
      done();
    },
  };
}
