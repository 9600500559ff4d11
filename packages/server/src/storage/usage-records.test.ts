import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketUpperMs, latencyBucket, statusClass } from './usage-records.ts';

describe('usage rollup cells', () => {
  it('statusClass → 429 apart from the other 4xx; 1xx and 3xx as other', () => {
    assert.deepEqual([200, 201, 400, 404, 429, 500, 503, 304, 101].map(statusClass), [
      '2xx',
      '2xx',
      '4xx',
      '4xx',
      '429',
      '5xx',
      '5xx',
      'other',
      'other',
    ]);
  });

  it('latencyBucket → each latency lies within its bucket, whose bound is at most 25 % above it', () => {
    for (const ms of [0.05, 0.1, 0.11, 1, 2.5, 10, 99.9, 1_000, 30_000]) {
      const bucket = latencyBucket(ms);
      assert.ok(ms <= bucketUpperMs(bucket) + 1e-9, `${ms} above its bucket`);
      if (ms > 0.1)
        assert.ok(bucketUpperMs(bucket) <= ms * 1.25 + 1e-9, `${ms}: bound ${bucketUpperMs(bucket)}`);
    }
    assert.equal(latencyBucket(10_000_000), 63);
    assert.equal(latencyBucket(Number.NaN), 0);
  });
});
