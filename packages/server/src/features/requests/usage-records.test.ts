import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bucketUpperMs, HOUR_MS, latencyBucket, rollUp, statusClass } from './usage-records.ts';

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

  it('rollUp → one cell per project, key, hour, class and bucket with its count, in one total order', () => {
    const sample = fc.record({
      projectId: fc.constantFrom('prj_a', 'prj_b', 'prj_\u00e9'),
      keyId: fc.constantFrom('key_1', 'key_2', 'key_10'),
      at: fc.integer({ min: 0, max: 5 * HOUR_MS }).map((ms) => 1_790_000_000_000 + ms),
      status: fc.constantFrom(200, 201, 301, 400, 404, 429, 500, 503),
      // Every bucket, one- and two-digit alike, and latencies in between.
      latencyMs: fc.oneof(
        fc.integer({ min: 0, max: 63 }).map((bucket) => bucketUpperMs(bucket) * 0.99),
        fc.double({ min: 0, max: 60_000, noNaN: true }),
      ),
    });
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 300 }), (batch) => {
        const expected = new Map<string, number>();
        for (const s of batch) {
          const cell = [
            s.projectId,
            s.keyId,
            Math.floor(s.at / HOUR_MS) * HOUR_MS,
            statusClass(s.status),
            latencyBucket(s.latencyMs),
          ];
          const id = JSON.stringify(cell);
          expected.set(id, (expected.get(id) ?? 0) + 1);
        }
        const cells = rollUp(batch);
        const actual = new Map(
          cells.map((c) => [
            JSON.stringify([c.projectId, c.keyId, c.hour, c.statusClass, c.bucket]),
            c.count,
          ]),
        );
        assert.deepEqual(actual, expected);
        assert.equal(cells.length, expected.size);
        // The order of each cell's text id, which earlier versions sorted by (a rolling upgrade mixes them).
        const text = (c: (typeof cells)[number]) =>
          `${c.projectId}\u0000${c.keyId}\u0000${c.hour}\u0000${c.statusClass}\u0000${c.bucket}`;
        for (let i = 1; i < cells.length; i++) {
          assert.ok(text(cells[i - 1]!) < text(cells[i]!), `cells ${i - 1} and ${i} out of order`);
        }
      }),
    );
  });
});
