import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latencyBucket } from './usage-records.ts';
import { chartWindow, periodsCsv, toPeriods } from './usage-series.ts';

const HOUR = 3_600_000;
const T = Date.UTC(2026, 10, 25, 10);

describe('usage series', () => {
  it('window → the last 24 hours or 30 days, the current one included', () => {
    assert.deepEqual(chartWindow('hour', T + 5), { since: T - 23 * HOUR, until: T + HOUR });
    const day = chartWindow('day', T);
    assert.equal((day.until - day.since) / (24 * HOUR), 30);
  });

  it('toPeriods → every period with zeros, counts by class, p50/p99 from the buckets', () => {
    const fast = latencyBucket(1);
    const slow = latencyBucket(100);
    const periods = toPeriods(
      [
        { hour: T, keyId: undefined, statusClass: '2xx', bucket: fast, count: 98 },
        { hour: T, keyId: undefined, statusClass: '429', bucket: fast, count: 1 },
        { hour: T, keyId: undefined, statusClass: '5xx', bucket: slow, count: 1 },
        { hour: T - 10 * HOUR, keyId: undefined, statusClass: '4xx', bucket: fast, count: 2 },
      ],
      'hour',
      T - 23 * HOUR,
      T + HOUR,
    );
    assert.equal(periods.length, 24);
    const last = periods.at(-1)!;
    assert.deepEqual([last.ok, last.rateLimited, last.serverErrors, last.total], [98, 1, 1, 100]);
    assert.ok(last.p50Ms! >= 1 && last.p50Ms! <= 1.25);
    assert.ok(last.p99Ms! >= 1 && last.p99Ms! <= 1.25);
    assert.equal(periods[13]!.clientErrors, 2);
    assert.equal(periods[0]!.total, 0);
    assert.equal(periods[0]!.p50Ms, null);
    const csv = periodsCsv(periods).split('\n');
    assert.equal(csv[0], 'period_start,2xx,4xx,429,5xx,total,p50_ms,p99_ms');
    assert.match(csv[24]!, /^2026-11-25T10:00:00.000Z,98,0,1,1,100,1\.\d+,1\.\d+$/);
    assert.equal(csv[1], `${new Date(T - 23 * HOUR).toISOString()},0,0,0,0,0,,`);
  });
});
