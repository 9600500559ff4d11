import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checks, freeSubject, type MakeStore, NOON, openLimiter, seconds } from './ratelimit-harness.ts';

const BAN_MS = 15 * 60_000;

export function banContract(makeStore: MakeStore): void {
  test('31st refusal within one window → temporarily_banned for 15 minutes, reported once', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const decisions = await checks(limiter, freeSubject('key:a'), 60 + 31 + 1);
    assert.ok(decisions.slice(60, 90).every((d) => d.reason === 'rate_limited'));
    const start = decisions[90]!;
    assert.equal(start.reason, 'temporarily_banned');
    assert.deepEqual(start.bannedNow, { until: NOON + BAN_MS });
    assert.equal(start.retryAfterSeconds, 900);
    assert.equal(start.headers['X-RateLimit-Remaining'], '0');
    assert.equal(start.headers['X-RateLimit-Reset'], seconds(NOON + BAN_MS));
    assert.equal(start.headers['Retry-After'], '900');
    const during = decisions[91]!;
    assert.equal(during.reason, 'temporarily_banned');
    assert.equal(during.bannedNow, undefined);
  });

  test('ban → Retry-After is the time left, the ban outlives window resets and ends on time', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 91);
    clock.advance(100_500);
    const later = await limiter.check(subject);
    assert.equal(later.reason, 'temporarily_banned');
    assert.equal(later.retryAfterSeconds, 800);
    clock.set(NOON + BAN_MS - 1);
    const last = await limiter.check(subject);
    assert.equal(last.reason, 'temporarily_banned');
    assert.equal(last.retryAfterSeconds, 1);
    clock.set(NOON + BAN_MS);
    const after = await limiter.check(subject);
    assert.equal(after.allowed, true);
    assert.equal(after.headers['X-RateLimit-Remaining'], '59', 'requests during the ban used no quota');
  });

  test('30 refusals in each of two windows → no ban (the count resets with the window)', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 90);
    clock.advance(60_000);
    const next = await checks(limiter, subject, 90);
    assert.ok(next.every((d) => d.reason !== 'temporarily_banned'));
  });

  test('day window refusing → refusals count across minutes towards the ban', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore, { banThreshold: 3 });
    const subject = freeSubject('key:a', { perDay: 2 });
    await checks(limiter, subject, 2);
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      assert.equal((await limiter.check(subject)).reason, 'rate_limited');
    }
    clock.advance(60_000);
    assert.ok((await limiter.check(subject)).bannedNow);
  });

  test('custom threshold and duration → ban after threshold+1 refusals for that long', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore, { banThreshold: 2, banDurationMs: 5_000 });
    const subject = freeSubject('key:a', { perMinute: 1 });
    const decisions = await checks(limiter, subject, 4);
    assert.deepEqual(
      decisions.map((d) => d.reason),
      [undefined, 'rate_limited', 'rate_limited', 'temporarily_banned'],
    );
    assert.equal(decisions[3]!.retryAfterSeconds, 5);
    clock.advance(5_000);
    assert.equal((await limiter.check(subject)).reason, 'rate_limited', 'back to the running minute window');
  });

  test('ban ended → a fresh count of refusals is needed for the next ban', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore, { banThreshold: 2, banDurationMs: 5_000 });
    const subject = freeSubject('key:a', { perMinute: 1 });
    await checks(limiter, subject, 4);
    clock.advance(5_000);
    const decisions = await checks(limiter, subject, 3);
    assert.deepEqual(
      decisions.map((d) => d.reason),
      ['rate_limited', 'rate_limited', 'temporarily_banned'],
    );
  });

  test('banLiftedAt at or after the ban started → ban dropped, request evaluated normally', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 91);
    clock.advance(30_000);
    const stillLimited = await limiter.check({ ...subject, banLiftedAt: NOON });
    assert.equal(stillLimited.reason, 'rate_limited', 'the minute window is still full');
    clock.advance(30_000);
    assert.equal((await limiter.check(subject)).allowed, true, 'the dropped ban stays dropped');
  });

  test('banLiftedAt before the ban started → still banned', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 90);
    clock.advance(1);
    await limiter.check(subject);
    const decision = await limiter.check({ ...subject, banLiftedAt: NOON });
    assert.equal(decision.reason, 'temporarily_banned');
  });

  test('unban() → the next request is evaluated normally', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 91);
    await limiter.unban(subject.bucket);
    clock.advance(60_000);
    assert.equal((await limiter.check(subject)).allowed, true);
  });

  test('bannedUntil on the subject → refused as banned until then, without a new ban', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const subject = freeSubject('key:a', { bannedUntil: NOON + 10_000 });
    const decision = await limiter.check(subject);
    assert.equal(decision.reason, 'temporarily_banned');
    assert.equal(decision.retryAfterSeconds, 10);
    assert.equal(decision.bannedNow, undefined);
    clock.advance(10_000);
    assert.equal((await limiter.check(subject)).allowed, true);
  });

  test('bans → held per bucket', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    await checks(limiter, freeSubject('key:a'), 91);
    assert.equal((await limiter.check(freeSubject('key:b'))).allowed, true);
  });
}
