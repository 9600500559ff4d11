import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { ADDRESS_BUDGETS } from '../../ratelimit/address-budgets.ts';
import type { IdempotentRequest } from '../../idempotency/sealed-answers.ts';
import type { Limits } from '../../ratelimit/plans.ts';
import type { LimitSubject, RateLimitDecision, RateLimiter } from '../../ratelimit/limiter.ts';
import type { AccessTokenService, TokenActor } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** On a management API route: the account acting through its access token (set by the guard). */
    tokenActor?: TokenActor;
  }
}

/** What each access token may ask of the management API (MANAGE_TOKEN_LIMITS, docs/management-api.md). */
export const MANAGE_TOKEN_LIMITS: Limits = { perMinute: 1_200, perDay: 100_000 };
/**
 * What all of an account's tokens together may ask (checked with each token's own in one step): more
 * tokens do not buy more requests (docs/management-api.md).
 */
export const MANAGE_ACCOUNT_LIMITS: Limits = { perMinute: 2_400, perDay: 200_000 };

const UNAUTHORIZED = 'a valid access token is required: send Authorization: Bearer ps_at_…';
const RENEW = 'make a new one in the dashboard under Account → Access tokens';

function refusal(decision: RateLimitDecision): ApiError {
  const retryAfter = String(decision.retryAfterSeconds ?? 1);
  return new ApiError(
    decision.reason === 'temporarily_banned' ? 'temporarily_banned' : 'rate_limited',
    `rate limit exceeded: retry after ${retryAfter} s`,
    { headers: { 'retry-after': retryAfter } },
  );
}

/**
 * The guard's check of a management API route (`access: 'accessToken'`): the bearer token is an
 * access token of an account (never an API key), counted against its own limits and its account's
 * ceiling; without a valid one the request counts against its client address, like `/v1` without a
 * key, and is 401.
 */
export function accessTokenCheck(deps: {
  tokens: Pick<AccessTokenService, 'authenticate'>;
  limiter: RateLimiter;
  limits?: Limits;
  accountLimits?: Limits;
}): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const limits = deps.limits ?? MANAGE_TOKEN_LIMITS;
  const account = deps.accountLimits ?? MANAGE_ACCOUNT_LIMITS;
  const { bucket, perMinute, perDay } = ADDRESS_BUDGETS.api;
  const byAddress = (request: FastifyRequest): LimitSubject => ({
    bucket: `${bucket}:${request.ip}`,
    perMinute,
    perDay,
  });
  const limit = async (reply: FastifyReply, subject: LimitSubject) => {
    const decision = await deps.limiter.check(subject);
    reply.headers(decision.headers);
    if (!decision.allowed) throw refusal(decision);
  };
  return async (request, reply) => {
    let actor: Awaited<ReturnType<AccessTokenService['authenticate']>>;
    try {
      actor = await deps.tokens.authenticate(request.headers.authorization, request.ip);
    } catch (error) {
      // The store is down: the 503 still reports (and counts against) the address's bucket.
      reply.headers((await deps.limiter.check(byAddress(request))).headers);
      throw error;
    }
    if (!actor || 'refused' in actor) {
      await limit(reply, byAddress(request));
      const why = actor
        ? `the access token ${actor.refused === 'expired' ? 'expired' : 'was revoked'} at ${new Date(actor.at).toISOString()}: ${RENEW}`
        : UNAUTHORIZED;
      throw new ApiError('unauthorized', why, { headers: { 'www-authenticate': 'Bearer' } });
    }
    await limit(reply, {
      bucket: `token:${actor.token.tokenId}`,
      ...limits,
      group: { bucket: `manage-account:${actor.accountId}`, ...account, ownPrefix: 'token-' },
    });
    request.tokenActor = actor;
  };
}

/** The actor of a management API route: the guard has checked its token before any handler runs. */
export function tokenActorOf(request: FastifyRequest): TokenActor {
  if (!request.tokenActor) throw new Error('a management route ran without the guard’s token check');
  return request.tokenActor;
}

/**
 * A create's request under its Idempotency-Key (idempotency/sealed-answers.ts): kept for the token
 * that sent it, and for this operation and `input` (its path parameters and checked body) only.
 */
export function idempotentRequest(
  request: FastifyRequest,
  operation: string,
  input: unknown,
): IdempotentRequest {
  const actor = tokenActorOf(request);
  return {
    accountId: actor.accountId,
    tokenId: actor.token.tokenId,
    header: request.headers['idempotency-key'],
    operation,
    input,
  };
}
