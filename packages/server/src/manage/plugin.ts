import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AreaChecks } from '../http/guard.ts';
import type { DeferredDomains } from '../features/domains/deferred.ts';
import { manageContract } from '../openapi/contract.ts';
import type { AreaRouterOptions } from '../routes/area-router.ts';
import { lazyArea } from '../routes/lazy-area.ts';
import type { Area } from '../routes/area.ts';
import type { RouteSpec } from '../routes/table.ts';
import type { ManageArea, ManageAreaDeps } from './area.ts';
import { MANAGE_LABEL, manageRouteSpecs } from './contract.ts';

export interface ManagePluginDeps extends Omit<ManageAreaDeps, 'routing' | 'domains'> {
  /** Custom domains: the service is imported with the area. */
  domains: DeferredDomains;
  /** Read when the area is loaded: the application router's options and its 404. */
  routing: () => AreaRouterOptions;
}

export interface ManagePlugin extends Area {
  /** The guard's access-token check, run by the loaded area. */
  checks: Required<Pick<AreaChecks, 'accessToken'>>;
  /** The operations of openapi/manage.yaml as routes (for the app's route table; reads the contract). */
  specs(): RouteSpec[];
  /** The metrics labels of its routes, declared before they are loaded. */
  metricsLabels: readonly string[];
}

/**
 * The management API's door, all a start loads of it: one prefix route, `/manage/v1/*`, whose first
 * request imports the area (area.ts) with its services and routes and reads its contract.
 */
export function createManagePlugin(deps: ManagePluginDeps): ManagePlugin {
  let loaded: ManageArea | undefined;
  const area = lazyArea({
    prefixes: ['/manage/v1/*'],
    // As the application's 404 answers `/manage/v1` itself: only while the area cannot be imported.
    config: { operationId: 'manageArea', access: 'public', rateLimited: true, metricsLabel: 'other' },
    async load() {
      const [{ createManageArea }, domains] = await Promise.all([
        import('./area.ts'),
        deps.domains.service(),
      ]);
      loaded = createManageArea({ ...deps, domains, routing: deps.routing() });
      return loaded.router;
    },
  });
  return {
    plugin(app, _options, done) {
      area.register(app);
      done();
    },
    checks: {
      accessToken(request: FastifyRequest, reply: FastifyReply) {
        if (!loaded) throw new Error('an access-token check before the management API was loaded');
        return loaded.checks.accessToken(request, reply);
      },
    },
    specs: () => manageRouteSpecs(manageContract().document),
    metricsLabels: [MANAGE_LABEL],
  };
}
