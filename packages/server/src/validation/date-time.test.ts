import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDateTime } from './date-time.ts';

test('parseDateTime → the instant of RFC 3339 date-times, offsets and fractions included', () => {
  assert.equal(parseDateTime('2026-11-22T12:00:00Z'), Date.UTC(2026, 10, 22, 12));
  assert.equal(parseDateTime('2026-11-22t12:00:00.123456z'), Date.UTC(2026, 10, 22, 12, 0, 0, 123));
  assert.equal(parseDateTime('2026-11-22T13:30:00+01:30'), Date.UTC(2026, 10, 22, 12));
  assert.equal(parseDateTime('2026-11-22T10:00:00-02:00'), Date.UTC(2026, 10, 22, 12));
  assert.equal(parseDateTime('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29));
  assert.equal(parseDateTime('0001-01-01T00:00:00Z'), -62_135_596_800_000);
  // A leap second falls at 23:59:60 UTC only, and reads as the instant after it.
  assert.equal(parseDateTime('2016-12-31T23:59:60Z'), Date.UTC(2017, 0, 1));
  assert.equal(parseDateTime('2017-01-01T00:59:60+01:00'), Date.UTC(2017, 0, 1));
});

test('parseDateTime → undefined for what Date.parse reads but RFC 3339 is not, and for days that do not exist', () => {
  for (const text of [
    '2026',
    '2026-11-22',
    '2026-11-22T12:00:00',
    '2026-11-22 12:00:00Z',
    'Nov 22 2026',
    '2026-11-22T12:00Z',
    '2026-11-22T12:00:00+0100',
    '2023-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T12:60:00Z',
    '2026-11-22T12:00:60Z',
    '2026-11-22T12:00:00+24:00',
    '+2026-11-22T12:00:00Z',
    '２０２６-11-22T12:00:00Z',
  ])
    assert.equal(parseDateTime(text), undefined, text);
});

test('parseDateTime → every instant written by toISOString reads back as itself', () => {
  fc.assert(
    fc.property(
      fc.date({
        min: new Date('0000-01-01T00:00:00Z'),
        max: new Date('9999-12-31T23:59:59Z'),
        noInvalidDate: true,
      }),
      (date) => assert.equal(parseDateTime(date.toISOString()), date.getTime()),
    ),
  );
});
