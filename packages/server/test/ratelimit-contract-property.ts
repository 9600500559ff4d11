import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type MakeStore, NOON, openLimiter, uniqueBucket } from './ratelimit-harness.ts';

const DAY_MS = 86_400_000;

const step = fc.oneof(
  { arbitrary: fc.constant(0), weight: 6 },
  { arbitrary: fc.integer({ min: 1, max: 70_000 }), weight: 3 },
  { arbitrary: fc.integer({ min: 1, max: 2 * DAY_MS }), weight: 1 },
);

export function propertyContract(makeStore: MakeStore, numRuns: number): void {
  test('random requests and clock moves → never more allowed than a window holds, Remaining never negative, Retry-After exact', async (t) => {
    const { limiter, clock } = await openLimiter(t, makeStore, { banThreshold: 1_000_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(step, { maxLength: 120 }),
        async (perMinute, perDay, steps) => {
          clock.set(NOON);
          const subject = { bucket: uniqueBucket('property'), perMinute, perDay };
          // Windows as the rules define them: a minute opened by the first request after the last
          // one ended, and the UTC day.
          let minuteEnd = Number.NEGATIVE_INFINITY;
          let inMinute = 0;
          let day = -1;
          let inDay = 0;
          for (const advance of steps) {
            clock.advance(advance);
            const now = clock.now();
            if (now >= minuteEnd) [minuteEnd, inMinute] = [now + 60_000, 0];
            if (Math.floor(now / DAY_MS) !== day) [day, inDay] = [Math.floor(now / DAY_MS), 0];
            const decision = await limiter.check(subject);
            assert.ok(Number(decision.headers['X-RateLimit-Remaining']) >= 0);
            if (decision.allowed) {
              inMinute += 1;
              inDay += 1;
              assert.ok(inMinute <= perMinute && inDay <= perDay);
            } else {
              const fullUntil = Math.max(
                inMinute === perMinute ? minuteEnd : 0,
                inDay === perDay ? (day + 1) * DAY_MS : 0,
              );
              assert.ok(fullUntil > 0, 'refused only when a window is full');
              const retryAt = now + decision.retryAfterSeconds! * 1_000;
              assert.ok(
                retryAt >= fullUntil && retryAt < fullUntil + 1_000,
                'Retry-After is the first moment with room',
              );
            }
          }
        },
      ),
      { numRuns },
    );
  });
}
