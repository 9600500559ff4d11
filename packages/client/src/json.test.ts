import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJson, stringifyJson } from './json.ts';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

test('parseJson → id and categoryId exact as bigint, other numbers untouched', () => {
  const text = `{"id":${MAX},"name":"x","categoryId":${MIN},"status":400}`;
  assert.deepEqual(parseJson(text), { id: BigInt(MAX), name: 'x', categoryId: BigInt(MIN), status: 400 });
  assert.deepEqual(parseJson('[{"id":1,"categoryId":2}]'), [{ id: 1n, categoryId: 2n }]);
});

test('stringifyJson → bigints written digit for digit, so the int64 extremes round-trip', () => {
  const text = stringifyJson({ name: 'x', categoryId: BigInt(MAX), other: BigInt(MIN) });
  assert.equal(text, `{"name":"x","categoryId":${MAX},"other":${MIN}}`);
  assert.deepEqual(parseJson(`{"id":${MIN},"categoryId":${MAX}}`), {
    id: BigInt(MIN),
    categoryId: BigInt(MAX),
  });
});
