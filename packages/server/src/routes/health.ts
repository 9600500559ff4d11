import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { JSON_CONTENT_TYPE, sendError } from '../http/send-error.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Storage } from '../storage/repository.ts';

const PING_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** /healthz: the process is alive. /readyz: the database answers and the limiter store is in use. */
export function registerHealth(app: FastifyInstance, deps: { storage: Storage; limiter: RateLimiter }): void {
  app.get('/healthz', async (_request, reply) =>
    reply
      .header('content-type', JSON_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send('{"status":"ok"}'),
  );

  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
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
  });
}
