import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCursor, parseSince, parseStatusFilter } from './filters.ts';

describe('request log filters', () => {
  it('parseStatusFilter → classes and codes; anything else undefined', () => {
    assert.equal(parseStatusFilter('4xx'), '4xx');
    assert.equal(parseStatusFilter('429'), '429');
    assert.equal(parseStatusFilter('404'), 404);
    for (const bad of ['3xx', '600', '42', 'abc', '', '4XX'])
      assert.equal(parseStatusFilter(bad), undefined, bad);
  });

  it('every parser, given names objects inherit or any text → a value of its kind or undefined, never a throw', () => {
    const inherited = fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty');
    const now = Date.UTC(2026, 10, 25, 12);
    fc.assert(
      fc.property(fc.oneof(inherited, fc.string({ maxLength: 30 })), (text) => {
        const status = parseStatusFilter(text);
        assert.ok(status === undefined || typeof status === 'number' || /^(2xx|4xx|429|5xx)$/.test(status));
        const since = parseSince(text, now);
        assert.ok(since === undefined || Number.isFinite(since), text);
        const cursor = parseCursor(text);
        assert.ok(cursor === undefined || Number.isFinite(cursor.at), text);
      }),
      { numRuns: 500 },
    );
  });

  it('parseSince → durations back from now and ISO instants; anything else undefined', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    assert.equal(parseSince('1h', now), now - 3_600_000);
    assert.equal(parseSince('30m', now), now - 1_800_000);
    assert.equal(parseSince('7d', now), now - 7 * 86_400_000);
    assert.equal(parseSince('2026-11-25T10:00:00Z', now), Date.UTC(2026, 10, 25, 10));
    assert.equal(parseSince('2026-11-24', now), Date.UTC(2026, 10, 24));
    for (const bad of ['1w', 'yesterday', '', '-1h', '2026-13-45'])
      assert.equal(parseSince(bad, now), undefined, bad);
  });

  it('parseCursor → at and id; malformed → undefined', () => {
    assert.deepEqual(parseCursor('1764072000000.42'), { at: 1764072000000, id: '42' });
    for (const bad of ['', '1.', '.1', 'a.b', '1.2.3', `1.${'9'.repeat(20)}`])
      assert.equal(parseCursor(bad), undefined, bad);
  });
});
