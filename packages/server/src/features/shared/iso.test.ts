import assert from 'node:assert/strict';
import { test } from 'node:test';
import { iso, isoOrNull } from './iso.ts';

test('iso writes every instant as Date#toISOString does, across days, years and the range ends', () => {
  const edges = [0, -1, 1, 86_399_999, 86_400_000, -86_400_000, 951_782_400_000, 253_402_300_799_999];
  edges.push(253_402_300_800_000, -62_167_219_200_001, 8.64e15, -8.64e15, 1_795_974_040_565);
  for (const at of edges) assert.equal(iso(at), new Date(at).toISOString(), String(at));
  for (let i = 0; i < 20_000; i++) {
    // Neighbours on the same day and far jumps, so that the remembered day is both kept and replaced.
    const at = i % 3 === 0 ? Math.floor((Math.random() - 0.5) * 1.6e13) : 1_795_974_040_565 + i * 997;
    assert.equal(iso(at), new Date(at).toISOString(), String(at));
  }
  assert.throws(() => iso(Number.NaN), RangeError);
  assert.equal(iso(8.64e15), new Date(8.64e15).toISOString());
  assert.throws(() => iso(8.64e15 + 1), RangeError);
  assert.equal(isoOrNull(null), null);
  assert.equal(isoOrNull(0), '1970-01-01T00:00:00.000Z');
});
