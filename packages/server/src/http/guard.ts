import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticator.ts';
import { ApiError } from '../errors.ts';
import { ANONYMOUS_LIMITS, limitsFor } from '../ratelimit/plans.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { ApiKeyRecord, KeyRepository } from '../storage/repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyRecord;
  }
}

export interface GuardDeps {
  authenticator: Authenticator;
  limiter: RateLimiter;
  keys: Pick<KeyRepository, 'banKey'>;
}

/** Paths under /v1 that are public: no key, no rate limit. */
const PUBLIC_PATHS = new Set(['/v1/openapi.json']);

export function isGuardedPath(url: string): boolean {
  if (!url.startsWith('/v1')) return false;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return (path === '/v1' || path.startsWith('/v1/')) && !PUBLIC_PATHS.has(path);
}

const UNAUTHORIZED_MESSAGE = 'a valid API key is required: send Authorization: Bearer <API key>';

/**
 * Every /v1 request (known route or not) is authenticated and rate limited before anything else, so
 * every /v1 response carries the rate-limit headers. Requests without a valid key share a per-address
 * bucket at the Free plan's rates, which also throttles key guessing.
 */
export function installGuard(app: FastifyInstance, deps: GuardDeps): void {
  const { authenticator, limiter, keys } = deps;

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isGuardedPath(request.url)) return;
    let key: ApiKeyRecord | undefined;
    try {
      key = await authenticator.authenticate(request.headers.authorization);
    } catch (error) {
      // The key store is down: the 503 still reports (and counts against) the address's bucket.
      reply.headers((await limiter.check({ bucket: `ip:${request.ip}`, ...ANONYMOUS_LIMITS })).headers);
      throw error;
    }
    const subject = key
      ? {
          bucket: `key:${key.id}`,
          ...limitsFor(key),
          banLiftedAt: key.banLiftedAt,
          bannedUntil: key.bannedUntil,
        }
      : { bucket: `ip:${request.ip}`, ...ANONYMOUS_LIMITS };
    const decision = await limiter.check(subject);
    reply.headers(decision.headers);
    if (decision.bannedNow && key)
      await recordBan(request, keys, authenticator, key.id, decision.bannedNow.until);
    if (!decision.allowed) {
      const banned = decision.reason === 'temporarily_banned';
      const retryAfter = String(decision.retryAfterSeconds ?? 1);
      throw new ApiError(
        banned ? 'temporarily_banned' : 'rate_limited',
        banned
          ? `too many requests after being rate limited: temporarily banned, retry after ${retryAfter} s`
          : `rate limit exceeded: retry after ${retryAfter} s`,
        { headers: { 'retry-after': retryAfter } },
      );
    }
    if (!key)
      throw new ApiError('unauthorized', UNAUTHORIZED_MESSAGE, { headers: { 'www-authenticate': 'Bearer' } });
    request.apiKey = key;
  });
}

/**
 * Records a ban on the key so `keys list` shows it and every instance and restart honours it. The
 * limiter already holds the ban, so a database that cannot take the write is logged, not answered
 * with a 5xx: the request still gets its 429 temporarily_banned.
 */
async function recordBan(
  request: FastifyRequest,
  keys: GuardDeps['keys'],
  authenticator: Authenticator,
  keyId: string,
  until: number,
): Promise<void> {
  const log = { keyId, until: new Date(until).toISOString() };
  try {
    await keys.banKey(keyId, until);
    authenticator.invalidate();
    request.log.warn(log, 'key banned');
  } catch (err) {
    request.log.error({ ...log, err }, 'key banned, but the ban could not be recorded in the database');
  }
}
