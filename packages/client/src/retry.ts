import type { PetstoreError } from './errors.ts';
import type { RetryOptions } from './types.ts';

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

function check(name: keyof RetryOptions, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    throw new RangeError(`retry.${name} must be a finite number of at least ${min}, got ${value}`);
  }
  return value;
}

/** The options merged over the defaults, checked once when the client is created. */
export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(policy.maxAttempts)) {
    throw new RangeError(`retry.maxAttempts must be an integer, got ${policy.maxAttempts}`);
  }
  return {
    maxAttempts: check('maxAttempts', policy.maxAttempts, 1),
    baseDelayMs: check('baseDelayMs', policy.baseDelayMs, 0),
    maxDelayMs: check('maxDelayMs', policy.maxDelayMs, 0),
    maxRetryAfterMs: check('maxRetryAfterMs', policy.maxRetryAfterMs, 0),
  };
}

/** Exponential backoff with full jitter: random(0, min(maxDelay, base · 2^retry)). */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** Failures worth sending again: an Idempotency-Key is always sent, so every request is idempotent. */
function isTransient(error: PetstoreError): boolean {
  if (error.code === 'network_error' || error.code === 'idempotency_in_progress') return true;
  return error.status >= 500 && error.status !== 501;
}

/**
 * How long to wait before sending again after `error` ended attempt `retry` (0 for the first), or
 * undefined to give up and throw it.
 *
 * - `temporarily_banned`: never retried; the ban lasts `Retry-After` and every request while banned is
 *   refused anyway.
 * - other 429s: exactly `Retry-After` seconds (never less: each early request counts towards a ban).
 * - network errors, 409 `idempotency_in_progress`, 5xx but 501: backoff, or `Retry-After` when sent.
 * - other 4xx (and 501): not retried.
 * A `Retry-After` longer than `maxRetryAfterMs` is not waited for. A request that is not `replayable`
 * (a change sent without an Idempotency-Key) is sent again only after a 429, which the service answers
 * before doing anything: after a network error or a 5xx it may have been done already.
 */
export function retryDelayMs(
  error: PetstoreError,
  retry: number,
  policy: RetryPolicy,
  random: () => number,
  replayable = true,
): number | undefined {
  if (error.code === 'temporarily_banned') return undefined;
  if (error.status !== 429 && !(replayable && isTransient(error))) return undefined;
  if (error.retryAfterSeconds === undefined) return backoffMs(policy, retry, random);
  const waitMs = error.retryAfterSeconds * 1_000;
  return waitMs <= policy.maxRetryAfterMs ? waitMs : undefined;
}
