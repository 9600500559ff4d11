import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from './errors.ts';
import { backoffMs, DEFAULT_RETRY, resolveRetryPolicy, retryDelayMs } from './retry.ts';

const error = (status: number, code: string, retryAfterSeconds?: number) =>
  new PetstoreError({ status, code: code as PetstoreError['code'], message: code, retryAfterSeconds });

test('resolveRetryPolicy → defaults 5 attempts, 200 ms base, 30 s cap, 60 s longest Retry-After', () => {
  assert.deepEqual(resolveRetryPolicy(), {
    maxAttempts: 5,
    baseDelayMs: 200,
    maxDelayMs: 30_000,
    maxRetryAfterMs: 60_000,
  });
  assert.equal(resolveRetryPolicy({ maxAttempts: 1 }).maxAttempts, 1);
});

test('backoffMs → doubles from the base and stops growing at the cap', () => {
  const almostOne = () => 0.999_999_999;
  const caps = [0, 1, 2, 7, 8, 20].map((n) => Math.round(backoffMs(DEFAULT_RETRY, n, almostOne)));
  assert.deepEqual(caps, [200, 400, 800, 25_600, 30_000, 30_000]);
  assert.equal(
    backoffMs(DEFAULT_RETRY, 3, () => 0),
    0,
  );
});

test('retryDelayMs → which failures are retried and after how long', () => {
  const half = () => 0.5;
  const delay = (e: PetstoreError, retry = 0) => retryDelayMs(e, retry, DEFAULT_RETRY, half);
  assert.equal(delay(error(429, 'rate_limited', 60)), 60_000);
  assert.equal(delay(error(429, 'rate_limited', 61)), undefined);
  assert.equal(delay(error(429, 'rate_limited')), 100);
  assert.equal(delay(error(429, 'temporarily_banned', 5)), undefined);
  assert.equal(delay(error(503, 'service_unavailable'), 2), 400);
  assert.equal(delay(error(503, 'service_unavailable', 4)), 4_000);
  assert.equal(delay(error(502, 'unexpected_response')), 100);
  assert.equal(delay(error(0, 'network_error'), 1), 200);
  assert.equal(delay(error(409, 'idempotency_in_progress')), 100);
  for (const [status, code] of [
    [400, 'invalid_body'],
    [401, 'unauthorized'],
    [404, 'not_found'],
    [410, 'gone'],
    [422, 'idempotency_key_reused'],
    [501, 'not_implemented'],
  ] as const) {
    assert.equal(delay(error(status, code)), undefined, `${status} ${code}`);
  }
});
