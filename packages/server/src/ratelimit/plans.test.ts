import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limitsFor, PLAN_LIMITS } from './plans.ts';

test('plans → the published per-minute and per-day limits', () => {
  assert.deepEqual(PLAN_LIMITS, {
    free: { perMinute: 60, perDay: 1_000 },
    pro: { perMinute: 300, perDay: 10_000 },
    business: { perMinute: 1_000, perDay: 100_000 },
  });
});

test('limitsFor → plan defaults, or the key’s custom numbers when set', () => {
  assert.deepEqual(limitsFor({ plan: 'pro', perMinute: null, perDay: null }), PLAN_LIMITS.pro);
  assert.deepEqual(limitsFor({ plan: 'enterprise', perMinute: 5_000, perDay: 2_000_000 }), {
    perMinute: 5_000,
    perDay: 2_000_000,
  });
  assert.deepEqual(limitsFor({ plan: 'enterprise', perMinute: null, perDay: null }), PLAN_LIMITS.business);
});
