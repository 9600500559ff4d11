import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../time/clock.ts';
import { startPurges } from './purge.ts';

const log = { info: () => {}, warn: () => {} };

test('purges → none at start-up; the first after its delay, then every interval; none after stop', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const runs: number[] = [];
  const task = { what: 'things', intervalMs: 1_000, purge: async () => runs.push(1) };
  const purges = await startPurges([task], { clock: new FakeClock(), log, firstDelayMs: 500 });
  assert.equal(runs.length, 0, 'nothing during start-up');
  t.mock.timers.tick(500);
  assert.equal(runs.length, 1);
  t.mock.timers.tick(2_000);
  assert.equal(runs.length, 3);
  purges.stop();
  t.mock.timers.tick(5_000);
  assert.equal(runs.length, 3);
});
