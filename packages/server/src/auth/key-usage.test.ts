import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKeyUsage } from './key-usage.ts';

const T0 = Date.UTC(2026, 0, 1);

function recorder(fail = false, maxRemembered?: number) {
  const writes: [string, number][] = [];
  const statements: number[] = [];
  const errors: unknown[] = [];
  const usage = createKeyUsage({
    keys: {
      async touch(uses) {
        if (fail) throw new Error('database down');
        statements.push(uses.length);
        for (const use of uses) writes.push([use.id, use.at]);
      },
    },
    delayMs: 60_000,
    maxRemembered,
    onError: (error) => errors.push(error),
  });
  return { usage, writes, statements, errors };
}

test('key usage → one write per key per minute, however many requests', async () => {
  const { usage, writes } = recorder();
  for (let i = 0; i < 1_000; i++) usage.record('key_a', T0 + i * 50);
  usage.record('key_b', T0 + 10);
  await usage.flush();
  assert.deepEqual(writes, [
    ['key_a', T0],
    ['key_b', T0 + 10],
  ]);
  usage.record('key_a', T0 + 59_999);
  usage.record('key_a', T0 + 60_000);
  await usage.flush();
  assert.deepEqual(writes.at(-1), ['key_a', T0 + 60_000]);
  assert.equal(writes.length, 3);
});

test('key usage → nothing is written on the request path, only when flushed', () => {
  const { usage, writes } = recorder();
  usage.record('key_a', T0);
  assert.deepEqual(writes, []);
});

test('key usage → a failed write is reported, not thrown', async () => {
  const { usage, errors } = recorder(true);
  usage.record('key_a', T0);
  await usage.flush();
  assert.equal(errors.length, 1);
});

test('key usage → the uses of many keys are written together, in one call', async () => {
  const { usage, writes, statements } = recorder();
  for (let n = 0; n < 5_000; n++) usage.record(`key_${n}`, T0 + n);
  await usage.flush();
  assert.equal(writes.length, 5_000);
  assert.deepEqual(statements, [5_000]);
});

test('key usage → past its bound one key is forgotten, never all: only that key is written again', async () => {
  const { usage, writes } = recorder(false, 3);
  for (const id of ['key_a', 'key_b', 'key_c']) usage.record(id, T0);
  await usage.flush();
  usage.record('key_d', T0 + 1);
  await usage.flush();
  assert.equal(writes.length, 4);
  for (const id of ['key_b', 'key_c', 'key_d']) usage.record(id, T0 + 2);
  usage.record('key_a', T0 + 2);
  await usage.flush();
  assert.deepEqual(writes.slice(4), [['key_a', T0 + 2]], 'key_a alone was forgotten');
});
