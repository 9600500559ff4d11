import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { runLimiterContract } from './ratelimit-contract.ts';

runLimiterContract('memory', async () => ({ store: createMemoryStore(), close: async () => {} }));

it('memory store: 1,000 project keys without limits of their own → one entry, the project’s; a key with its own → one more', async () => {
  const store = createMemoryStore();
  const now = Date.UTC(2026, 0, 1);
  const group = {
    bucket: 'project:prj_1',
    windows: [{ name: 'minute', limit: 100_000, resetAtIfNew: now + 60_000 }],
  };
  const consume = (bucket: string, windows: { name: string; limit: number; resetAtIfNew: number }[]) =>
    store.consume({
      bucket,
      now,
      windows,
      group,
      banLiftedAt: null,
      banThreshold: 0,
      banUntilIfStarted: now + 900_000,
      refuseInDoubt: true,
    });
  for (let n = 0; n < 1_000; n++) {
    const outcome = await consume(`key:key_${n}`, []);
    assert.equal(outcome.kind === 'counted' && outcome.allowed, true);
  }
  assert.equal(store.size(), 1);
  const own = [{ name: 'minute', limit: 1, resetAtIfNew: now + 60_000 }];
  await consume('key:key_own', own);
  const refused = await consume('key:key_own', own);
  assert.equal(refused.kind, 'banned', 'its own window refuses and, past a threshold of 0, bans');
  assert.equal(store.size(), 2);
  const [minute] = await store.peek('project:prj_1', now, ['minute']);
  assert.equal(minute!.count, 1_001, 'every allowed request counted in the project');
});
