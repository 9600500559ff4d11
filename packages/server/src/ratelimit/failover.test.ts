import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../time/clock.ts';
import { createLoopAwareTimeout } from '../time/loop-aware-timeout.ts';
import { createRateLimiter } from './limiter.ts';
import type { RateLimitStore } from './store.ts';
import { createMemoryStore } from './memory-store.ts';

const subject = { bucket: 'key:a', perMinute: 60, perDay: 1_000 };

/** A memory store that can be told to hang or to fail, counting the calls it receives. */
function flakyStore() {
  const inner = createMemoryStore();
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang', calls: 0 };
  const store: RateLimitStore = {
    name: 'flaky',
    consume(input) {
      state.calls += 1;
      if (state.mode === 'fail') return Promise.reject(new Error('store down'));
      if (state.mode === 'hang') return new Promise(() => {});
      return inner.consume(input);
    },
    peek(bucket, now, names) {
      state.calls += 1;
      if (state.mode === 'fail') return Promise.reject(new Error('store down'));
      if (state.mode === 'hang') return new Promise(() => {});
      return inner.peek(bucket, now, names);
    },
    unban: (bucket) => inner.unban(bucket),
    close: () => inner.close(),
  };
  return { store, state };
}

/**
 * `promise`, or a failure when it has not settled within `ms` of time in which the event loop was free:
 * the limiter's store timeout counts that time, so a loaded machine delays both alike.
 */
const answeredWithin = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  createLoopAwareTimeout(ms).within(promise, what);

test('store hangs → that check refused for a second after the store timeout (it may yet be counted), other subjects answered by the fallback', async () => {
  const { store, state } = flakyStore();
  state.mode = 'hang';
  const clock = new FakeClock();
  const limiter = createRateLimiter({
    store,
    clock,
    storeTimeoutMs: 50,
    storeRetryIntervalMs: 60_000,
    onStoreError: () => {},
  });
  const started = performance.now();
  const decision = await answeredWithin(limiter.check(subject), 500, 'the check');
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 45, `answered after ${elapsed} ms, before the store timeout`);
  assert.equal(decision.allowed, false);
  assert.equal(decision.reason, 'rate_limited');
  assert.equal(decision.retryAfterSeconds, 1);
  assert.equal(decision.headers['X-RateLimit-Remaining'], '0');
  assert.deepEqual(limiter.status(), { store: 'flaky', degraded: true });
  assert.equal((await limiter.check({ ...subject, bucket: 'key:b' })).allowed, true, 'no call in doubt');
  clock.advance(999);
  assert.equal((await limiter.check(subject)).allowed, false, 'still in doubt');
  clock.advance(1);
  assert.equal((await limiter.check(subject)).allowed, true, 'after 1 s the fallback answers');
  await limiter.close();
});

test('store hangs, subject inDoubt: fallback (health probes) → answered by the fallback after the timeout', async () => {
  const { store, state } = flakyStore();
  state.mode = 'hang';
  const limiter = createRateLimiter({
    store,
    clock: new FakeClock(),
    storeTimeoutMs: 50,
    onStoreError: () => {},
  });
  const probe = { ...subject, inDoubt: 'fallback' as const };
  assert.equal((await limiter.check(probe)).allowed, true);
  assert.equal((await limiter.check(probe)).allowed, true);
  await limiter.close();
});

test('store answers a timed-out call late → its subject is refused until then, answered by the fallback after', async () => {
  const inner = createMemoryStore();
  let answerLate: () => void = () => {};
  const store: RateLimitStore = {
    ...inner,
    name: 'slow',
    consume: (input) =>
      new Promise((resolve) => {
        answerLate = () => resolve(inner.consume(input));
      }),
  };
  const limiter = createRateLimiter({
    store,
    clock: new FakeClock(),
    storeTimeoutMs: 20,
    onStoreError: () => {},
  });
  assert.equal((await limiter.check(subject)).allowed, false, 'timed out: in doubt');
  assert.equal((await limiter.check(subject)).allowed, false, 'degraded, still in doubt');
  answerLate();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal((await limiter.check(subject)).allowed, true, 'the late answer ends the doubt');
  await limiter.close();
});

test('store failing → reported once, probed at most once per interval, recovery reported once', async () => {
  const { store, state } = flakyStore();
  const clock = new FakeClock();
  const events: string[] = [];
  const limiter = createRateLimiter({
    store,
    clock,
    storeRetryIntervalMs: 1_000,
    onStoreError: (err) => events.push(`error: ${(err as Error).message}`),
    onStoreRecovered: () => events.push('recovered'),
  });
  state.mode = 'fail';
  for (let i = 0; i < 5; i++) await limiter.check(subject);
  assert.equal(state.calls, 1, 'later checks go straight to the fallback');
  clock.advance(999);
  await limiter.check(subject);
  assert.equal(state.calls, 1);
  clock.advance(1);
  await limiter.check(subject);
  assert.equal(state.calls, 2, 'one probe once the interval has passed');
  state.mode = 'ok';
  clock.advance(1_000);
  await limiter.check(subject);
  await limiter.check(subject);
  assert.equal(state.calls, 4);
  assert.deepEqual(events, ['error: store down', 'recovered']);
  assert.equal(limiter.status().degraded, false);
  await limiter.close();
});

test('store failing while a probe is in flight → other checks do not wait for it', async () => {
  const { store, state } = flakyStore();
  const clock = new FakeClock();
  const limiter = createRateLimiter({ store, clock, storeTimeoutMs: 200, onStoreError: () => {} });
  state.mode = 'fail';
  await limiter.check(subject);
  state.mode = 'hang';
  clock.advance(1_000);
  let probed = false;
  const probe = limiter.check(subject).then(() => (probed = true));
  await limiter.check(subject);
  assert.equal(probed, false, "answered before the probe's store timeout");
  await probe;
  assert.equal(state.calls, 2);
  await limiter.close();
});

test('options → an invalid ban threshold or duration is refused at creation', () => {
  const store = createMemoryStore();
  const clock = new FakeClock();
  assert.throws(() => createRateLimiter({ store, clock, banThreshold: -1 }), /banThreshold/);
  assert.throws(() => createRateLimiter({ store, clock, banDurationMs: 0 }), /banDurationMs/);
});

test('store hangs or fails → usage is read from the fallback, not waited for', async () => {
  const { store, state } = flakyStore();
  const limiter = createRateLimiter({
    store,
    clock: new FakeClock(),
    storeTimeoutMs: 50,
    onStoreError: () => {},
  });
  state.mode = 'hang';
  assert.equal((await answeredWithin(limiter.usage(subject), 1_000, 'usage')).minute.used, 0);
  state.mode = 'fail';
  assert.equal((await limiter.usage(subject)).day.used, 0);
  await limiter.close();
});
