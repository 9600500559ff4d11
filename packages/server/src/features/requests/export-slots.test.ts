import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FakeClock } from '../../time/clock.ts';
import type { ExportSlotStore, TakeInput, TakeOutcome } from './export-slot-store.ts';
import { createExportSlots } from './export-slots.ts';
import { createMemorySlotStore } from './export-slots-memory.ts';

/** A shared store that works, refuses every call at once (down), or answers only when told (stalled). */
function flakyStore() {
  const inner = createMemorySlotStore();
  let mode: 'up' | 'down' | 'stalled' = 'up';
  const stalled: (() => void)[] = [];
  const released: string[] = [];
  const call = <T>(work: () => Promise<T>): Promise<T> => {
    if (mode === 'down') return Promise.reject(new Error('connection refused'));
    if (mode === 'stalled') return new Promise<T>((resolve) => stalled.push(() => void work().then(resolve)));
    return work();
  };
  const store: ExportSlotStore = {
    name: 'flaky',
    take: (input: TakeInput): Promise<TakeOutcome> => call(() => inner.take(input)),
    renew: (lease, now, expiresAt) => call(() => inner.renew(lease, now, expiresAt)),
    release: (lease) =>
      call(async () => {
        released.push(lease.slot);
        await inner.release(lease);
      }),
    close: () => inner.close(),
  };
  return {
    store,
    released,
    set: (next: typeof mode) => {
      mode = next;
    },
    answer: () => stalled.splice(0).forEach((go) => go()),
  };
}

const ask = (holder: string) => ({ projectId: 'p', holder });

describe('export slots when the shared store fails', () => {
  test('store refusing calls → exports capped by this instance alone, the failure reported once, the recovery once', async (t) => {
    const flaky = flakyStore();
    const clock = new FakeClock();
    const events: string[] = [];
    const other = createExportSlots({ shared: flaky.store, clock });
    const slots = createExportSlots({
      shared: flaky.store,
      clock,
      retryIntervalMs: 5_000,
      onStoreError: () => events.push('error'),
      onStoreRecovered: () => events.push('recovered'),
    });
    t.after(async () => Promise.all([slots.close(), other.close()]));
    assert.ok((await other.take(ask('token:elsewhere'))).ok, 'a slot held on another instance');
    flaky.set('down');
    assert.ok((await slots.take(ask('token:a'))).ok);
    assert.deepEqual(await slots.take(ask('token:a')), { ok: false, cap: 'holder' });
    assert.ok((await slots.take(ask('token:b'))).ok, "the other instance's slot is not seen");
    assert.deepEqual(await slots.take(ask('token:c')), { ok: false, cap: 'project' });
    assert.deepEqual(events, ['error']);

    flaky.set('up');
    clock.advance(4_999);
    assert.deepEqual(await slots.take(ask('token:c')), { ok: false, cap: 'project' });
    assert.deepEqual(events, ['error'], 'not tried again before the retry interval');
    clock.advance(1);
    assert.deepEqual(await slots.take(ask('token:c')), { ok: false, cap: 'project' }, 'the local cap first');
    assert.ok((await slots.take({ projectId: 'q', holder: 'token:d' })).ok);
    assert.deepEqual(events, ['error', 'recovered']);
  });

  test('store not answering → the export starts after the timeout; the late slot is released once answered', async (t) => {
    const flaky = flakyStore();
    const errors: unknown[] = [];
    const slots = createExportSlots({
      shared: flaky.store,
      clock: new FakeClock(),
      timeoutMs: 20,
      onStoreError: (err) => errors.push(err),
    });
    t.after(() => slots.close());
    flaky.set('stalled');
    const slot = await slots.take(ask('token:a'));
    assert.ok(slot.ok);
    assert.equal(errors.length, 1);
    flaky.set('up');
    flaky.answer();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(flaky.released.length, 1, 'the slot the store took late is given back');
  });
});
