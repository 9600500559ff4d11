import type { FastifyBaseLogger, RouteHandlerMethod } from 'fastify';
import { DEFAULT_MIN_FREE_DISK_BYTES } from '../config.ts';
import { ApiError } from '../errors.ts';
import { JSON_CONTENT_TYPE, sendError } from '../http/send-error.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Storage } from '../storage/repository.ts';
import { withTimeout } from '../time/with-timeout.ts';

/** Each database check answers within this, whatever the database does. */
const CHECK_TIMEOUT_MS = 2000;
/**
 * A successful write probe is reused for this long, and callers arriving while one runs share it: it
 * commits (and fsyncs) a write, and /readyz is public, so any number of callers cost at most one write
 * per interval. A failure is not reused: recovery shows at the next call.
 */
export const READINESS_REUSE_MS = 1000;
/**
 * Readiness asks the limiter store itself: its failover notices a store that died while no /v1 request
 * came, and probes it again after an outage, so an instance taken out of rotation can come back.
 */
const STORE_PROBE = { bucket: 'readiness-probe', perMinute: 1_000_000_000, perDay: 1_000_000_000 };

export interface HealthDeps {
  storage: Storage;
  limiter: RateLimiter;
  /** Not ready below this many free bytes where the database is stored (0: not checked). */
  minFreeDiskBytes?: number;
  /** Why hosts cannot be looked up now (the change feed or a lookup failed), or undefined. */
  hostRouting?: () => Promise<string | undefined>;
  log: FastifyBaseLogger;
  /** From the start of a graceful shutdown, so a load balancer still asking stops sending traffic here. */
  closing: () => boolean;
}

interface Readiness {
  checks: Record<string, string>;
  /** What is wrong, for the 503's message; empty when ready. */
  failing: string[];
}

const MB = 1024 * 1024;

/**
 * getHealth (/healthz): the process is alive. getReadiness (/readyz): the database commits a write,
 * its disk has room, hosts can be looked up (the change feed reads), and the rate-limit store is in use.
 */
export function healthOperations(deps: HealthDeps): {
  getHealth: RouteHandlerMethod;
  getReadiness: RouteHandlerMethod;
} {
  const minFree = deps.minFreeDiskBytes ?? DEFAULT_MIN_FREE_DISK_BYTES;

  const probeWrite = async (): Promise<boolean> => {
    try {
      await withTimeout(deps.storage.probeWrite(), CHECK_TIMEOUT_MS);
      return true;
    } catch (error) {
      deps.log.warn({ cause: (error as Error).message }, 'readiness: the database does not take writes');
      return false;
    }
  };
  let inFlight: Promise<boolean> | undefined;
  let lastSuccessAt = -Infinity;
  const databaseWritable = async (): Promise<boolean> => {
    if (performance.now() - lastSuccessAt < READINESS_REUSE_MS) return true;
    inFlight ??= probeWrite().then((writable) => {
      inFlight = undefined;
      if (writable) lastSuccessAt = performance.now();
      return writable;
    });
    return inFlight;
  };

  const assess = async (): Promise<Readiness> => {
    const checks: Record<string, string> = {};
    const failing: string[] = [];
    // Asked beside the database's write, not after it: readiness answers within one check's time.
    const routing =
      deps.hostRouting &&
      withTimeout(deps.hostRouting(), CHECK_TIMEOUT_MS).catch(() => 'hosts could not be looked up in time');
    if (await databaseWritable()) checks.database = 'ok';
    else {
      checks.database = 'unavailable';
      failing.push(`database (${deps.storage.kind}) unreachable or not taking writes`);
    }
    if (deps.storage.freeDiskBytes && minFree > 0) {
      try {
        const free = await withTimeout(deps.storage.freeDiskBytes(), CHECK_TIMEOUT_MS);
        checks.disk = free >= minFree ? 'ok' : 'low';
        if (free < minFree) {
          failing.push(
            `disk almost full (${Math.floor(free / MB)} MB free, ${Math.ceil(minFree / MB)} MB required)`,
          );
        }
      } catch (error) {
        deps.log.warn({ cause: (error as Error).message }, 'readiness: free disk space unknown');
        checks.disk = 'unknown';
        failing.push('free disk space unknown');
      }
    }
    if (routing) {
      const problem = await routing;
      checks.hostRouting = problem === undefined ? 'ok' : 'failing';
      if (problem !== undefined) failing.push(problem);
    }
    await deps.limiter.check(STORE_PROBE);
    const limiter = deps.limiter.status();
    checks.rateLimitStore = limiter.degraded ? 'degraded' : 'ok';
    if (limiter.degraded) failing.push(`rate-limit store (${limiter.store}) unreachable`);
    return { checks, failing };
  };

  const getHealth: RouteHandlerMethod = async (_request, reply) =>
    reply
      .header('content-type', JSON_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send('{"status":"ok"}');

  const getReadiness: RouteHandlerMethod = async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (deps.closing())
      return sendError(request, reply, new ApiError('service_unavailable', 'not ready: shutting down'));
    const { checks, failing } = await assess();
    if (failing.length > 0) {
      return sendError(
        request,
        reply,
        new ApiError('service_unavailable', `not ready: ${failing.join('; ')}`),
      );
    }
    const body = { status: 'ready', checks };
    return reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(body));
  };
  return { getHealth, getReadiness };
}
