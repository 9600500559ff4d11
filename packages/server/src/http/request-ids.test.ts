import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRequestIds } from './request-ids.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('request ids are UUIDv7 carrying the time in ms', () => {
  const id = createRequestIds(() => 0x0194_2b3c_4d5e).next();
  assert.match(id, UUID_V7);
  assert.equal(id.slice(0, 13), '01942b3c-4d5e');
});

test('request ids increase and never repeat, also past 4,096 in one ms and when the clock steps back', () => {
  let ms = 1_750_000_000_000;
  const ids = createRequestIds(() => ms);
  const seen: string[] = [];
  for (let i = 0; i < 10_000; i++) seen.push(ids.next());
  ms -= 5;
  for (let i = 0; i < 100; i++) seen.push(ids.next());
  ms += 1_000;
  seen.push(ids.next());
  for (const id of seen) assert.match(id, UUID_V7);
  assert.equal(new Set(seen).size, seen.length);
  assert.deepEqual([...seen].sort(), seen);
});

test('two processes (generators) never make the same id in the same ms', () => {
  const a = createRequestIds(() => 5).next();
  const b = createRequestIds(() => 5).next();
  assert.notEqual(a, b);
});
