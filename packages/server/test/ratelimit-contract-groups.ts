import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { LimitSubject } from '../src/ratelimit/limiter.ts';
import {
  checks,
  type MakeStore,
  NEXT_MIDNIGHT,
  NOON,
  openLimiter,
  seconds,
  uniqueBucket,
} from './ratelimit-harness.ts';

const FREE = { perMinute: 60, perDay: 1_000 };

/** A key of a project: no limit of its own unless given, the project's plan for the project. */
function projectKey(
  key: string,
  project: string,
  own: { perMinute?: number; perDay?: number } = {},
  plan = FREE,
): LimitSubject {
  return {
    bucket: `key:${key}`,
    perMinute: own.perMinute ?? Infinity,
    perDay: own.perDay ?? Infinity,
    group: { bucket: `project:${project}`, ...plan },
  };
}

/** A project's limits hold across all its keys; a key's own lower limits hold too; bans stay per key. */
export function groupContract(makeStore: MakeStore): void {
  test('ten keys of a Free project → 60 allowed in the minute in all, the 61st refused with the project window', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const keys = Array.from({ length: 10 }, (_, i) => projectKey(`k${i}`, 'free'));
    const decisions = [];
    for (let round = 0; round < 7; round++) {
      for (const key of keys) decisions.push(await limiter.check(key));
    }
    assert.equal(decisions.filter((d) => d.allowed).length, 60);
    assert.ok(decisions.slice(0, 60).every((d) => d.allowed));
    assert.deepEqual(
      decisions.slice(0, 60).map((d) => d.headers['X-RateLimit-Remaining']),
      Array.from({ length: 60 }, (_, i) => String(59 - i)),
      'each key sees the project window',
    );
    const refused = decisions[60]!;
    assert.equal(refused.reason, 'rate_limited');
    assert.deepEqual(refused.headers, {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': seconds(NOON + 60_000),
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=0;t=60',
      'Retry-After': '60',
    });
  });

  test('100 concurrent checks over ten keys of a Free project → exactly 60 allowed', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => limiter.check(projectKey(`k${i % 10}`, 'concurrent'))),
    );
    const allowed = decisions.filter((d) => d.allowed);
    assert.equal(allowed.length, 60);
    assert.equal(new Set(allowed.map((d) => d.headers['X-RateLimit-Remaining'])).size, 60);
  });

  test('the project day window → refuses the 1,001st request of the day across keys, resets at 00:00 UTC', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    for (let minute = 0; minute < 16; minute++) {
      for (let i = 0; i < 60; i++) assert.ok((await limiter.check(projectKey(`k${i % 3}`, 'day'))).allowed);
      clock.advance(60_000);
    }
    const last = await checks(limiter, projectKey('k9', 'day'), 41);
    assert.ok(last.slice(0, 40).every((d) => d.allowed));
    assert.equal(last[40]!.headers['X-RateLimit-Limit'], '1000');
    assert.equal(last[40]!.headers['X-RateLimit-Reset'], seconds(NEXT_MIDNIGHT));
    clock.set(NEXT_MIDNIGHT);
    assert.equal((await limiter.check(projectKey('k1', 'day'))).allowed, true);
  });

  test('a key with lower limits of its own → refused at its own limit while its project has room; its headers report the closer window', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const capped = projectKey('capped', 'caps', { perMinute: 5 });
    const first = await limiter.check(capped);
    assert.equal(first.headers['X-RateLimit-Limit'], '5');
    assert.equal(first.headers['X-RateLimit-Remaining'], '4');
    assert.equal(
      first.headers['RateLimit-Policy'],
      '"minute";q=60;w=60, "day";q=1000;w=86400, "key-minute";q=5;w=60',
    );
    const rest = await checks(limiter, capped, 5);
    assert.deepEqual(
      rest.map((d) => d.allowed),
      [true, true, true, true, false],
    );
    assert.equal(rest[4]!.headers['X-RateLimit-Limit'], '5');
    assert.equal(rest[4]!.headers['RateLimit'], '"key-minute";r=0;t=60');
    const other = await limiter.check(projectKey('other', 'caps'));
    assert.equal(other.allowed, true);
    assert.equal(other.headers['X-RateLimit-Remaining'], '54', "the capped key's refusal spent nothing");
    // With 54 of the project's minute left and 1 of its own day, the key reports its day window.
    const daily = projectKey('daily', 'caps', { perDay: 2 });
    const firstDaily = await limiter.check(daily);
    assert.deepEqual(
      [firstDaily.headers['X-RateLimit-Limit'], firstDaily.headers['X-RateLimit-Remaining']],
      ['2', '1'],
    );
  });

  test('a request refused by its project → spends nothing of the key or the project', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const plan = { perMinute: 3, perDay: 100 };
    const a = projectKey('a', 'spend', { perMinute: 10 }, plan);
    const b = projectKey('b', 'spend', {}, plan);
    await checks(limiter, b, 3);
    assert.equal((await limiter.check(a)).allowed, false);
    const usage = await limiter.usage({ ...a, group: a.group });
    assert.deepEqual([usage.minute.used, usage.day.used], [0, 0]);
    const project = await limiter.usage({ bucket: 'project:spend', ...plan });
    assert.deepEqual([project.minute.used, project.day.used], [3, 3]);
  });

  test('a key refused by its project’s window, which another key filled → limited, never banned (issue 50)', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore);
    const plan = { perMinute: 300, perDay: 10_000 };
    const a = projectKey('a', 'shared', {}, plan);
    const b = projectKey('b', 'shared', {}, plan);
    await checks(limiter, a, 200);
    const decisions = await checks(limiter, b, 200);
    assert.equal(decisions.filter((d) => d.allowed).length, 100, 'key B gets what key A left');
    assert.ok(decisions.slice(100).every((d) => d.reason === 'rate_limited'));
    assert.ok(
      decisions.every((d) => !d.bannedNow),
      '100 refusals of the project’s window: no ban',
    );
    assert.equal((await limiter.check(a)).reason, 'rate_limited', 'nor is key A banned');
    clock.advance(60_000);
    assert.equal((await limiter.check(b)).allowed, true, 'key B is served once the project’s minute resets');
  });

  test('a key that keeps sending past its own lower limit → banned alone; the project’s other keys are not', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    const noisy = projectKey('noisy', 'bans', { perMinute: 5 });
    const quiet = projectKey('quiet', 'bans');
    await checks(limiter, noisy, 5 + 30);
    const started = await limiter.check(noisy);
    assert.equal(started.reason, 'temporarily_banned');
    assert.ok(started.bannedNow);
    assert.equal((await limiter.check(quiet)).allowed, true, 'the other key is served');
    assert.equal((await limiter.check(noisy)).reason, 'temporarily_banned');
    await limiter.unban(noisy.bucket, noisy.group!.bucket);
    assert.equal((await limiter.check(noisy)).reason, 'rate_limited', 'unbanned; its minute is still spent');
  });

  test('projects and standalone keys → limited independently', async (t) => {
    const { limiter } = await openLimiter(t, makeStore);
    await checks(limiter, projectKey('a', 'one'), 61);
    assert.equal((await limiter.check(projectKey('b', 'two'))).headers['X-RateLimit-Remaining'], '59');
    const standalone = await limiter.check({ bucket: 'key:solo', ...FREE });
    assert.equal(standalone.headers['X-RateLimit-Remaining'], '59');
  });

  test('random requests of random keys → never more allowed than the project or a key holds', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore, { banThreshold: 1_000_000 });
    const step = fc.record({
      key: fc.integer({ min: 0, max: 3 }),
      advance: fc.constantFrom(0, 0, 0, 7_000, 61_000),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), {
          minLength: 4,
          maxLength: 4,
        }),
        fc.array(step, { maxLength: 60 }),
        async (perMinute, caps, steps) => {
          clock.set(NOON);
          const project = uniqueBucket('p');
          const keys = caps.map((cap, i) =>
            projectKey(`${project}-${i}`, project, { perMinute: cap }, { perMinute, perDay: 1_000 }),
          );
          // Minute windows as the rules define them, for the project and each key.
          const project_ = { end: Number.NEGATIVE_INFINITY, used: 0 };
          const own = keys.map(() => ({ end: Number.NEGATIVE_INFINITY, used: 0 }));
          for (const { key, advance } of steps) {
            clock.advance(advance);
            const now = clock.now();
            for (const w of [project_, own[key]!]) if (now >= w.end) [w.end, w.used] = [now + 60_000, 0];
            const decision = await limiter.check(keys[key]!);
            const room = project_.used < perMinute && own[key]!.used < (caps[key] ?? Infinity);
            assert.equal(decision.allowed, room);
            if (decision.allowed) {
              project_.used += 1;
              own[key]!.used += 1;
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });
}
