import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticator.ts';
import type { KeyUsage } from '../auth/key-usage.ts';
import { ApiError } from '../errors.ts';
import { applyCors, type CorsPolicy } from './cors.ts';
import { ADDRESS_BUDGETS } from '../ratelimit/address-budgets.ts';
import { keySubject } from '../ratelimit/plans.ts';
import type { LimitSubject, RateLimitDecision, RateLimiter } from '../ratelimit/limiter.ts';
import { matchRoute, type RouteConfig, routeConfig } from './route-config.ts';
import type { AuthenticatedKey } from '../storage/records.ts';
import type { Clock } from '../time/clock.ts';
import { requestShapeProblem } from './request-shape.ts';
import { HSTS } from './scheme.ts';
import { handoffOf } from './lane-handoff.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: AuthenticatedKey;
  }
}

/**
 * The checks of the product areas above the HTTP layer, run by the guard for the routes that declare
 * them: each throws the ApiError (or answers the redirect) of a request it refuses.
 */
export interface AreaChecks {
  /** A signed-in dashboard session (`access: 'session'`). */
  session(request: FastifyRequest): Promise<void>;
  /** The member's role in the project of the path (`role`). */
  role(request: FastifyRequest, role: NonNullable<RouteConfig['role']>): Promise<void>;
  /** A project's docs site served on this host (`host: 'site'`). */
  site(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** A form's CSRF token, once its body is read (`csrf`). */
  csrf(request: FastifyRequest): void;
  /** An access token of the management API, and its own rate limit (`access: 'accessToken'`). */
  accessToken?(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export interface GuardDeps {
  authenticator: Authenticator;
  limiter: RateLimiter;
  /** Records a ban until the given instant (the keys' repository). */
  keys: { ban(id: string, until: number): Promise<boolean> };
  usage: KeyUsage;
  clock: Clock;
  /** What the product areas check, for the routes that declare it (wired by app.ts). */
  areas: AreaChecks;
  cors: CorsPolicy;
}

const UNAUTHORIZED_MESSAGE = 'a valid API key is required: send Authorization: Bearer <API key>';

const anonymous = (
  request: Pick<Admittable, 'ip'>,
  config: Pick<RouteConfig, 'addressBudget'>,
): LimitSubject => {
  const { bucket, perMinute, perDay, inDoubt } = ADDRESS_BUDGETS[config.addressBudget ?? 'api'];
  return { bucket: `${bucket}:${request.ip}`, perMinute, perDay, inDoubt };
};

/**
 * The first hook of every request, reading the configuration of the route the router matched: the
 * request id and CORS headers, a request malformed as HTTP refused (see requestShapeProblem),
 * deprecation headers, then, in this order, rate limiting (by key, or by client address without a valid
 * key), authentication and the sunset. A request that reaches a handler has
 * passed all of them, whatever the spelling of its URL; 401s and 429s carry the rate-limit headers.
 */
export function installGuard(app: FastifyInstance, deps: GuardDeps): void {
  app.decorateRequest('route', null);
  // A form's CSRF token is in its body, so it is checked once the body is read.
  app.addHook('preHandler', (request, _reply, done) => {
    try {
      if (routeConfig(request).csrf) deps.areas.csrf(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    const config = matchRoute(request);
    if (config instanceof Promise) config.then((found) => onRequest(deps, request, reply, found, done), done);
    else onRequest(deps, request, reply, config, done);
  });
}

/** The guard's checks of a request whose route config is known, in the order installGuard describes. */
function onRequest(
  deps: GuardDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  config: RouteConfig,
  done: (error?: Error) => void,
): void {
  reply.header('x-request-id', request.id);
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  // Pages (dashboard, docs sites) are navigated to, never read by another origin's script.
  if (!config.htmlErrors) applyCors(deps.cors, request.headers.origin, reply);
  const problem = requestShapeProblem(request.raw);
  if (problem) {
    refuseBeforeRouting(deps, request, reply, problem).catch(done);
    return;
  }
  if (config.deprecation) reply.headers(config.deprecation.headers);
  const handoff = handoffOf(request.raw);
  if (handoff) {
    // The API's lane already ran the checks and met this error: it is answered from here.
    reply.headers(handoff.headers);
    request.apiKey = handoff.apiKey;
    done(handoff.error as Error);
    return;
  }
  if (config.access === 'public' && !config.rateLimited && config.host !== 'site') {
    done();
    return;
  }
  guard(deps, request, reply, config).then(() => done(), done);
}

/** The key of an `apiKey` route: the guard has authenticated it before any handler runs. */
export function apiKeyOf(request: FastifyRequest): AuthenticatedKey {
  if (!request.apiKey) throw new Error('an API key route ran without the guard’s key check');
  return request.apiKey;
}

/** What admitting a request reads of it and sets on it: the framework's request, or the API lane's. */
export interface Admittable {
  headers: IncomingHttpHeaders;
  /** The client address (after trusted proxies). */
  ip: string;
  apiKey?: AuthenticatedKey;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export type AdmitDeps = Pick<GuardDeps, 'authenticator' | 'limiter' | 'keys' | 'usage' | 'clock'>;

/**
 * Rate limiting (by key, or by client address without a valid key) and authentication, in this order;
 * the rate-limit headers are set on 401s and 429s too. Throws the ApiError to answer with.
 */
export async function admit(
  deps: AdmitDeps,
  request: Admittable,
  setHeaders: (headers: Record<string, string>) => void,
  config: RouteConfig,
): Promise<void> {
  const { authenticator, limiter } = deps;
  let key: AuthenticatedKey | undefined;
  if (config.access === 'apiKey') {
    try {
      key = await authenticator.authenticate(request.headers.authorization);
      // Known from here on, so the request log names the key of a 429 too.
      request.apiKey = key;
    } catch (error) {
      // The key store is down: the 503 still reports (and counts against) the address's bucket.
      setHeaders((await limiter.check(anonymous(request, config))).headers);
      throw error;
    }
  }
  if (config.rateLimited) {
    const decision = await limiter.check(key ? keySubject(key) : anonymous(request, config));
    setHeaders(decision.headers);
    if (decision.bannedNow && key) await recordBan(request, deps, key.id, decision.bannedNow.until);
    if (!decision.allowed) throw refusal(decision);
  }
  if (config.access === 'apiKey') {
    if (!key)
      throw new ApiError('unauthorized', UNAUTHORIZED_MESSAGE, { headers: { 'www-authenticate': 'Bearer' } });
    deps.usage.record(key.id, deps.clock.now());
  }
}

/** A deprecated route answers 410 gone from its sunset on. */
export function checkSunset(config: RouteConfig, now: number): void {
  if (config.deprecation && now >= config.deprecation.sunsetAt) {
    throw new ApiError('gone', config.deprecation.goneMessage);
  }
}

async function guard(deps: GuardDeps, request: FastifyRequest, reply: FastifyReply, config: RouteConfig) {
  await admit(deps, request, (headers) => reply.headers(headers), config);
  if (config.access === 'accessToken') {
    if (!deps.areas.accessToken) throw new Error('a management route without the access-token check');
    await deps.areas.accessToken(request, reply);
  }
  if (config.access === 'session') await deps.areas.session(request);
  if (config.role) await deps.areas.role(request, config.role);
  if (config.host === 'site') await deps.areas.site(request, reply);
  checkSunset(config, deps.clock.now());
}

function refusal(decision: RateLimitDecision): ApiError {
  const banned = decision.reason === 'temporarily_banned';
  const retryAfter = String(decision.retryAfterSeconds ?? 1);
  return new ApiError(
    banned ? 'temporarily_banned' : 'rate_limited',
    banned
      ? `too many requests after being rate limited: temporarily banned, retry after ${retryAfter} s`
      : `rate limit exceeded: retry after ${retryAfter} s`,
    { headers: { 'retry-after': retryAfter } },
  );
}

/**
 * A request malformed as HTTP is refused before authentication, whatever its route, counted against
 * its client address (a key in it is not trusted), and its connection is closed after the answer.
 */
async function refuseBeforeRouting(
  deps: GuardDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ApiError,
): Promise<never> {
  reply.header('connection', 'close');
  // Counted in the API budget of the address: nothing in a malformed request names a route to trust.
  const decision = await deps.limiter.check(anonymous(request, { addressBudget: 'api' }));
  reply.headers(decision.headers);
  throw decision.allowed ? problem : refusal(decision);
}

/**
 * Records a ban on the key so `keys list` shows it and every instance and restart honours it. The
 * limiter already holds the ban, so a database that cannot take the write is logged, not answered
 * with a 5xx: the request still gets its 429 temporarily_banned.
 */
async function recordBan(
  request: Admittable,
  deps: Pick<GuardDeps, 'keys' | 'authenticator'>,
  keyId: string,
  until: number,
): Promise<void> {
  const log = { keyId, until: new Date(until).toISOString() };
  try {
    await deps.keys.ban(keyId, until);
    deps.authenticator.forget(keyId);
    request.log.warn(log, 'key banned');
  } catch (err) {
    request.log.error({ ...log, err }, 'key banned, but the ban could not be recorded in the database');
  }
}
