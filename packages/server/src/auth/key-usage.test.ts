import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKeyUsage } from './key-usage.ts';

const T0 = Date.UTC(2026, 0, 1);

function recorder(fail = false) {
  const writes: [string, number][] = [];
  const errors: unknown[] = [];
  const usage = createKeyUsage({
    keys: {
      async touchKey(id, at) {
        if (fail) throw new Error('database down');
        writes.push([id, at]);
      },
    },
    delayMs: 60_000,
    onError: (error) => errors.push(error),
  });
  return { usage, writes, errors };
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
