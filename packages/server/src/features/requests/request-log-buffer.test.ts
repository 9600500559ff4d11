import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoggedRequest } from './request-log-records.ts';
import { createRequestLogBuffer } from './request-log-buffer.ts';
import { createTopCounts } from './top-counts.ts';

const row = (projectId: string, at: number, status = 200): LoggedRequest => ({
  projectId,
  at,
  requestId: `${projectId}-${at}`,
  keyId: `key_${projectId}`,
  keyLabel: null,
  operation: 'listPets',
  method: 'GET',
  path: '/v1/pets',
  status,
  code: status === 429 ? 'rate_limited' : null,
  latencyMs: 1,
  address: '127.0.0.1',
});

describe('request log buffer', () => {
  it('full → a row of a project holding fewer takes the place of the newest row of the one holding most', () => {
    const buffer = createRequestLogBuffer(4);
    for (let i = 0; i < 4; i++) assert.equal(buffer.offer(row('a', i)).kind, 'added');
    assert.deepEqual(buffer.offer(row('a', 4)), { kind: 'dropped' });
    const offered = buffer.offer(row('b', 5));
    assert.equal(offered.kind, 'added');
    assert.equal(offered.kind === 'added' && offered.evicted?.at, 3);
    assert.equal(buffer.offer(row('b', 6)).kind, 'added');
    // a: 2, b: 2 — equal shares: neither gives up a row for the other.
    assert.deepEqual(buffer.offer(row('b', 7)), { kind: 'dropped' });
    assert.deepEqual(buffer.offer(row('a', 8)), { kind: 'dropped' });
    assert.deepEqual(
      buffer.take(10).map((r) => r.at),
      [0, 1, 5, 6],
    );
    assert.equal(buffer.size, 0);
  });

  it('rows taken → in arrival order, evicted ones skipped, the size kept', () => {
    const buffer = createRequestLogBuffer(3);
    buffer.offer(row('a', 0));
    buffer.offer(row('a', 1));
    buffer.offer(row('a', 2));
    buffer.offer(row('c', 3));
    assert.equal(buffer.size, 3);
    assert.deepEqual(
      buffer.take(2).map((r) => r.at),
      [0, 1],
    );
    assert.deepEqual(
      buffer.take(2).map((r) => r.at),
      [3],
    );
  });

  it('refusals of one key, code and second → one row counting them, written once its second has passed', () => {
    let clock = 0;
    const buffer = createRequestLogBuffer(10, () => clock);
    assert.equal(buffer.offer(row('a', 1_000, 429)).kind, 'added');
    assert.deepEqual(buffer.offer(row('a', 1_999, 429)), { kind: 'counted' });
    assert.equal(buffer.offer(row('a', 2_000, 429)).kind, 'added');
    assert.equal(buffer.offer(row('b', 2_001)).kind, 'added');
    // The second of 1,000 has passed (a row of 2,000 came); the second of 2,000 has not.
    assert.deepEqual(
      buffer.take(10).map((r) => [r.at, r.count]),
      [
        [1_000, 2],
        [2_001, undefined],
      ],
    );
    assert.equal(buffer.size, 1);
    assert.deepEqual(buffer.offer(row('a', 2_500, 429)), { kind: 'counted' });
    assert.deepEqual(buffer.take(10), [], 'still counting');
    clock = 1_000;
    assert.deepEqual(
      buffer.take(10).map((r) => [r.at, r.count]),
      [[2_000, 2]],
      'a second later by the monotonic clock',
    );
    assert.equal(buffer.offer(row('a', 2_600, 429)).kind, 'added', 'a written row counts no more');
    assert.deepEqual(
      buffer.take(10, true).map((r) => r.at),
      [2_600],
      'taken at once when every row is asked for',
    );
  });

  it('refusals of ten keys of one project in one second → as many rows as one key’s, each key’s number kept', () => {
    const buffer = createRequestLogBuffer(100, () => 0);
    const refused = (key: number, at: number, status = 429, code = 'rate_limited') => ({
      ...row('a', at, status),
      keyId: `key_${key}`,
      code,
    });
    for (let i = 0; i < 50; i++) buffer.offer(refused(i % 10, 1_000 + i));
    for (let i = 0; i < 20; i++) buffer.offer(refused(i % 10, 1_100 + i, 429, 'temporarily_banned'));
    buffer.offer(refused(3, 1_200, 403, 'forbidden'));
    buffer.offer(refused(4, 1_300, 403, 'forbidden'));
    // Another project's refusals are its own row.
    buffer.offer({ ...row('b', 1_400, 429), keyId: 'key_b' });
    const taken = buffer.take(100, true);
    assert.deepEqual(
      taken.map((r) => [r.projectId, r.status, r.code, r.count]),
      [
        ['a', 429, 'rate_limited', 50],
        ['a', 429, 'temporarily_banned', 20],
        ['a', 403, 'forbidden', 2],
        ['b', 429, 'rate_limited', undefined],
      ],
    );
    assert.deepEqual(
      [...taken[0]!.countsByKey!].sort(),
      Array.from({ length: 10 }, (_, key) => [`key_${key}`, 5]).sort(),
    );
    assert.equal(taken[0]!.keyId, 'key_0', 'the row names the first key refused');
    assert.equal(taken[3]!.countsByKey, undefined);
    // One key alone: its row, with no per-key numbers to carry.
    buffer.offer(refused(1, 3_000));
    buffer.offer(refused(1, 3_001));
    const [alone] = buffer.take(10, true);
    assert.deepEqual([alone!.count, alone!.countsByKey], [2, undefined]);
  });
});

describe('top counts', () => {
  it('more names than it holds → the most counted kept, each count never under, the total exact', () => {
    const counts = createTopCounts(3);
    for (let i = 0; i < 100; i++) counts.add('flood');
    for (let i = 0; i < 50; i++) counts.add(`one-${i}`);
    counts.add('second', 20);
    const top = counts.top(2);
    assert.deepEqual(top[0], { name: 'flood', count: 100 });
    assert.equal(top[1]!.name, 'second');
    assert.ok(top[1]!.count >= 20);
    assert.equal(counts.total, 170);
  });
});
