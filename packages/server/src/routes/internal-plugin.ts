import type { FastifyBaseLogger } from 'fastify';
import type { Family } from '../metrics/exposition.ts';
import type { HostDirectory } from '../features/domains/sites/host-directory.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Storage } from '../storage/repository.ts';
import { type Area, registerAreaRoutes } from './area.ts';
import { healthOperations } from './health.ts';
import { lazyHandlers } from './lazy-handlers.ts';
import { getMetrics } from './metrics.ts';

export interface InternalAreaDeps {
  storage: Storage;
  limiter: RateLimiter;
  log: FastifyBaseLogger;
  /** What /metrics reports. */
  gatherMetrics: () => Promise<Family[]>;
  minFreeDiskBytes?: number;
  /** What each host serves: the TLS proxy's question is answered from it. */
  hosts: HostDirectory;
  /** Why hosts cannot be looked up now (readiness), or undefined. */
  hostRouting?: () => Promise<string | undefined>;
}

/**
 * What the service's own infrastructure asks: liveness and readiness (load balancers), metrics
 * (Prometheus) and, on the internal listener only, the TLS proxy's question.
 */
export function createInternalArea(deps: InternalAreaDeps): Area {
  let closing = false;
  const area: Omit<Area, 'plugin'> = {
    operations: {
      ...healthOperations({
        storage: deps.storage,
        limiter: deps.limiter,
        minFreeDiskBytes: deps.minFreeDiskBytes,
        hostRouting: deps.hostRouting,
        log: deps.log,
        closing: () => closing,
      }),
      getMetrics: getMetrics(deps.gatherMetrics),
    },
    // The TLS proxy asks only when a certificate is needed: its handler is imported on the first ask.
    others: lazyHandlers(['tlsAsk'], async () => ({
      tlsAsk: (await import('../features/domains/tls-ask.ts')).tlsAsk(deps.hosts),
    })),
  };
  return {
    ...area,
    plugin(app, options, done) {
      app.addHook('preClose', async () => {
        closing = true;
      });
      registerAreaRoutes(app, options, area);
      done();
    },
  };
}
