import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import { JSON_CONTENT_TYPE, sendError } from '../http/send-error.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Storage } from '../storage/repository.ts';
import { withTimeout } from '../time/with-timeout.ts';

const PING_TIMEOUT_MS = 2000;
/**
 * Readiness asks the limiter store itself: its failover notices a store that died while no /v1 request
 * came, and probes it again after an outage, so an instance taken out of rotation can come back.
 */
const STORE_PROBE = { bucket: 'readiness-probe', perMinute: 1_000_000_000, perDay: 1_000_000_000 };

/** getHealth (/healthz): the process is alive. getReadiness (/readyz): the database answers and the limiter store is in use. */
export function healthOperations(
  app: FastifyInstance,
  deps: { storage: Storage; limiter: RateLimiter },
): { getHealth: RouteHandlerMethod; getReadiness: RouteHandlerMethod } {
  // From the start of a graceful shutdown, so a load balancer still asking stops sending traffic here.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  const getHealth: RouteHandlerMethod = async (_request, reply) =>
    reply
      .header('content-type', JSON_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send('{"status":"ok"}');

  const getReadiness: RouteHandlerMethod = async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (closing)
      return sendError(request, reply, new ApiError('service_unavailable', 'not ready: shutting down'));
    await deps.limiter.check(STORE_PROBE);
    const limiter = deps.limiter.status();
    let database = 'ok';
    try {
      await withTimeout(deps.storage.ping(), PING_TIMEOUT_MS);
    } catch (error) {
      request.log.warn({ err: error }, 'readiness: database check failed');
      database = 'unavailable';
    }
    const rateLimitStore = limiter.degraded ? 'degraded' : 'ok';
    if (database !== 'ok' || limiter.degraded) {
      const failing = [
        database !== 'ok' ? `database (${deps.storage.kind})` : '',
        limiter.degraded ? `rate-limit store (${limiter.store})` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return sendError(
        request,
        reply,
        new ApiError('service_unavailable', `not ready: ${failing} unreachable`),
      );
    }
    const body = { status: 'ready', checks: { database, rateLimitStore } };
    return reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(body));
  };
  return { getHealth, getReadiness };
}
