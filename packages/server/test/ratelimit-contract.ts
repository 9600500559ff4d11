import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { banContract } from './ratelimit-contract-bans.ts';
import { groupContract } from './ratelimit-contract-groups.ts';
import { propertyContract } from './ratelimit-contract-property.ts';
import {
  checks,
  freeSubject,
  type MakeStore,
  NEXT_MIDNIGHT,
  NOON,
  openLimiter,
  seconds,
} from './ratelimit-harness.ts';

export type { MakeStore, StoreFixture } from './ratelimit-harness.ts';

/** The behaviour every rate-limit store must give the limiter; run once per store implementation. */
export function runLimiterContract(
  name: string,
  makeStore: MakeStore,
  options: { skip?: string; propertyRuns?: number } = {},
): void {
  describe(`rate limiter on the ${name} store`, { skip: options.skip }, () => {
    windowContract(makeStore);
    headerContract(makeStore);
    banContract(makeStore);
    groupContract(makeStore);
    propertyContract(makeStore, options.propertyRuns ?? 100);
  });
}

function windowContract(makeStore: MakeStore): void {
  test('free key → 60th request allowed with Remaining 0, 61st refused rate_limited', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const decisions = await checks(limiter, freeSubject('key:a'), 61);
    assert.deepEqual(
      decisions.slice(0, 60).map((d) => d.headers['X-RateLimit-Remaining']),
      Array.from({ length: 60 }, (_, i) => String(59 - i)),
    );
    assert.ok(decisions.slice(0, 60).every((d) => d.allowed && d.reason === undefined));
    const refused = decisions[60]!;
    assert.equal(refused.allowed, false);
    assert.equal(refused.reason, 'rate_limited');
    assert.equal(refused.retryAfterSeconds, 60);
    assert.equal(refused.headers['X-RateLimit-Limit'], '60');
    assert.equal(refused.headers['X-RateLimit-Remaining'], '0');
    assert.equal(refused.headers['Retry-After'], '60');
  });

  test('usage → counts of both windows without counting; 0 before the first request and after a reset', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:usage', { perMinute: 5, perDay: 8 });
    assert.deepEqual(await limiter.usage(subject), {
      minute: { used: 0, limit: 5, resetAt: 0 },
      day: { used: 0, limit: 8, resetAt: 0 },
    });
    await checks(limiter, subject, 3);
    const usage = await limiter.usage(subject);
    assert.deepEqual([usage.minute.used, usage.day.used], [3, 3]);
    assert.equal(usage.minute.resetAt, NOON + 60_000);
    assert.equal(usage.day.resetAt, NEXT_MIDNIGHT);
    assert.deepEqual((await limiter.usage(subject)).minute.used, 3, 'usage counts nothing');
    clock.advance(60_000);
    const later = await limiter.usage(subject);
    assert.deepEqual([later.minute.used, later.minute.resetAt, later.day.used], [0, 0, 3]);
  });

  test('refused requests → use no quota of either window', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a', { perMinute: 5, perDay: 8 });
    const first = await checks(limiter, subject, 9);
    assert.deepEqual(
      first.map((d) => d.allowed),
      [true, true, true, true, true, false, false, false, false],
    );
    clock.advance(60_000);
    const second = await checks(limiter, subject, 4);
    assert.deepEqual(
      second.map((d) => d.allowed),
      [true, true, true, false],
    );
    assert.equal(second[3]!.headers['X-RateLimit-Limit'], '8', 'the day window refused');
  });

  test('Retry-After → waiting exactly that long is allowed, one ms less is not', async (t) => {
    const start = NOON + 250;
    const { limiter, clock } = await openLimiter(t, makeStore, { start });
    const subject = freeSubject('key:a');
    await limiter.check(subject);
    clock.advance(10_000);
    await checks(limiter, subject, 59);
    const refused = await limiter.check(subject);
    assert.equal(refused.retryAfterSeconds, 50);
    assert.equal(refused.headers['X-RateLimit-Reset'], seconds(start + 60_000));
    clock.advance(49_999);
    const early = await limiter.check(subject);
    assert.equal(early.allowed, false);
    assert.equal(early.retryAfterSeconds, 1);
    clock.advance(1);
    assert.equal((await limiter.check(subject)).allowed, true);
  });

  test('Retry-After → rounded up to whole seconds, never early', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a', { perMinute: 1 });
    await limiter.check(subject);
    clock.advance(10_400);
    const refused = await limiter.check(subject);
    assert.equal(refused.retryAfterSeconds, 50);
    clock.advance(49_599);
    assert.equal((await limiter.check(subject)).allowed, false);
    clock.advance(1);
    assert.equal((await limiter.check(subject)).allowed, true);
  });

  test('minute window → anchored at the first request, not at the wall-clock minute', async (t) => {
    const start = Date.UTC(2026, 0, 1, 12, 0, 59, 500);
    const { limiter, clock } = await openLimiter(t, makeStore, { start });
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 30);
    clock.advance(1_000);
    await checks(limiter, subject, 30);
    const refused = await limiter.check(subject);
    assert.equal(refused.allowed, false, 'the 61st request, across the wall-clock minute, is refused');
    assert.equal(refused.headers['X-RateLimit-Reset'], seconds(start + 60_000));
    clock.set(start + 60_000);
    const renewed = await limiter.check(subject);
    assert.equal(renewed.allowed, true);
    assert.equal(
      renewed.headers['X-RateLimit-Reset'],
      seconds(start + 120_000),
      'the next window starts now',
    );
  });

  test('day window → refuses the 1,001st request of a UTC day, resets at 00:00 UTC', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    for (let minute = 0; minute < 16; minute++) {
      assert.ok((await checks(limiter, subject, 60)).every((d) => d.allowed));
      clock.advance(60_000);
    }
    const last = await checks(limiter, subject, 41);
    assert.ok(last.slice(0, 40).every((d) => d.allowed));
    const refused = last[40]!;
    assert.equal(refused.reason, 'rate_limited');
    assert.equal(refused.headers['X-RateLimit-Limit'], '1000');
    assert.equal(refused.headers['X-RateLimit-Reset'], seconds(NEXT_MIDNIGHT));
    assert.equal(refused.retryAfterSeconds, (NEXT_MIDNIGHT - clock.now()) / 1_000);
    clock.set(NEXT_MIDNIGHT - 1);
    assert.equal((await limiter.check(subject)).allowed, false);
    clock.set(NEXT_MIDNIGHT);
    const next = await limiter.check(subject);
    assert.equal(next.allowed, true);
  });

  test('day reset at midnight → leaves a running minute window as it is', async (t) => {
    const start = NEXT_MIDNIGHT - 30_000;
    const { limiter, clock } = await openLimiter(t, makeStore, { start });
    const subject = freeSubject('key:a', { perMinute: 3, perDay: 3 });
    await checks(limiter, subject, 3);
    clock.set(NEXT_MIDNIGHT);
    const refused = await limiter.check(subject);
    assert.equal(refused.allowed, false);
    assert.equal(refused.headers['X-RateLimit-Limit'], '3');
    assert.equal(refused.retryAfterSeconds, 30);
    clock.set(start + 60_000);
    assert.equal((await limiter.check(subject)).allowed, true);
  });

  test('buckets → are limited independently', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    await checks(limiter, freeSubject('key:a'), 61);
    const other = await limiter.check(freeSubject('key:b'));
    assert.equal(other.allowed, true);
    assert.equal(other.headers['X-RateLimit-Remaining'], '59');
  });

  test('100 concurrent checks against a limit of 60 → exactly 60 allowed', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.check(subject)));
    const allowed = decisions.filter((d) => d.allowed);
    assert.equal(allowed.length, 60);
    const remaining = new Set(allowed.map((d) => d.headers['X-RateLimit-Remaining']));
    assert.equal(remaining.size, 60, 'each allowed request saw its own count');
  });
}

function headerContract(makeStore: MakeStore): void {
  test('headers → report the window with fewer remaining', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a', { perMinute: 10, perDay: 12 });
    const first = await limiter.check(subject);
    assert.equal(first.headers['X-RateLimit-Limit'], '10');
    assert.equal(first.headers['X-RateLimit-Remaining'], '9');
    assert.equal(first.headers['X-RateLimit-Reset'], seconds(NOON + 60_000));
    await checks(limiter, subject, 9);
    clock.advance(60_000);
    const dayCloser = await limiter.check(subject);
    assert.deepEqual(
      [dayCloser.headers['X-RateLimit-Limit'], dayCloser.headers['X-RateLimit-Remaining']],
      ['12', '1'],
    );
    assert.equal(dayCloser.headers['X-RateLimit-Reset'], seconds(NEXT_MIDNIGHT));
    assert.equal(dayCloser.headers['RateLimit'], `"day";r=1;t=${(NEXT_MIDNIGHT - clock.now()) / 1_000}`);
  });

  test('headers → on a tie report the window resetting sooner, with the IETF fields', async (t) => {
    const start = NOON + 400;
    const { limiter, clock } = await openLimiter(t, makeStore, { start });
    const subject = freeSubject('key:a', { perMinute: 5, perDay: 5 });
    await limiter.check(subject);
    clock.advance(1_000);
    const decision = await limiter.check(subject);
    assert.deepEqual(decision.headers, {
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': seconds(start + 60_000),
      'RateLimit-Policy': '"minute";q=5;w=60, "day";q=5;w=86400',
      RateLimit: '"minute";r=3;t=59',
    });
  });

  test('headers → the refusing window, Remaining 0, Reset in Unix seconds rounded up', async (t) => {
    const start = NOON + 1;
    const { limiter } = await openLimiter(t, makeStore, { start });
    const decisions = await checks(limiter, freeSubject('key:a'), 61);
    const refused = decisions[60]!;
    assert.deepEqual(refused.headers, {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String((NOON + 60_000) / 1_000 + 1),
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=0;t=60',
      'Retry-After': '60',
    });
  });
}
