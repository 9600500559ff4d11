import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryStore } from './memory-store.ts';
import type { ConsumeInput } from './store.ts';

const NOW = Date.UTC(2026, 0, 1, 12);

function input(bucket: string, now: number): ConsumeInput {
  return {
    bucket,
    now,
    windows: [{ name: 'minute', limit: 1, resetAtIfNew: now + 60_000 }],
    banLiftedAt: null,
    banThreshold: 0,
    banUntilIfStarted: now + 900_000,
  };
}

test('memory store → entries are swept once their windows and bans have ended', async () => {
  const store = createMemoryStore({ sweepIntervalMs: 60_000 });
  for (let i = 0; i < 1_000; i++) await store.consume(input(`ip:${i}`, NOW));
  await store.consume(input('banned', NOW));
  assert.equal((await store.consume(input('banned', NOW))).kind, 'banned');
  assert.equal(store.size(), 1_001);
  await store.consume(input('late', NOW + 60_000));
  assert.equal(store.size(), 2, 'the banned subject is kept until its ban ends');
  await store.consume(input('later', NOW + 900_000 + 60_000));
  assert.equal(store.size(), 1);
});
