import type { DomainsService, DomainsServiceDeps } from './service.ts';
import { serviceSettings, settingsOf } from './settings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Custom domains: the one service of every door, also run by the server's background checks. */
    domains: DeferredDomains;
  }
}

/**
 * The custom-domain service, imported when first used (a dashboard or management API request, the
 * background checks, a test): it brings the public suffix list, the DNS checks and the mixed-script
 * tables, which a process that serves no domain operation never needs.
 */
export interface DeferredDomains {
  /** The service, imported on the first call; a failed import is tried again by the next call. */
  service(): Promise<DomainsService>;
  /**
   * Records what this service judges domains by (its DNS servers, site domain, API host…) for the
   * command line (`petstore domains`), without importing the service.
   */
  recordSettings(): Promise<void>;
}

export function deferredDomains(deps: DomainsServiceDeps): DeferredDomains {
  let loading: Promise<DomainsService> | undefined;
  return {
    service: () =>
      (loading ??= import('./service.ts').then(
        ({ createDomainsService }) => createDomainsService(deps),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
    recordSettings: () => serviceSettings(deps.storage.sql).record(settingsOf(deps), deps.clock.now()),
  };
}
