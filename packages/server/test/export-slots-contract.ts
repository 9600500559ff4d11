import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { ExportSlotStore, TakeInput } from '../src/features/requests/export-slot-store.ts';
import { createExportSlots, EXPORT_LEASE_MS } from '../src/features/requests/export-slots.ts';
import { FakeClock } from '../src/time/clock.ts';

/** A store of its own (for Redis: its own key prefix), and how to remove what it left. */
export type MakeSlotStore = () => Promise<{ store: ExportSlotStore; close: () => Promise<void> }>;

const NOON = Date.UTC(2026, 10, 22, 12, 0, 0);
const LEASE = 1_000;

const ask = (slot: string, projectId: string, holder: string, now = NOON): TakeInput => ({
  slot,
  projectId,
  holder,
  now,
  expiresAt: now + LEASE,
  perProject: 2,
  perHolder: 1,
});

async function open(t: test.TestContext, make: MakeSlotStore): Promise<ExportSlotStore> {
  const { store, close } = await make();
  t.after(async () => {
    await store.close();
    await close();
  });
  return store;
}

/** The behaviour every export slot store must have; run once per implementation. */
export function runExportSlotContract(
  name: string,
  make: MakeSlotStore,
  options: { skip?: string } = {},
): void {
  describe(`export slots on the ${name} store`, { skip: options.skip }, () => {
    test('one holder → its second slot refused by the holder cap; another holder → the project cap after two', async (t) => {
      const store = await open(t, make);
      assert.deepEqual(await store.take(ask('s1', 'p', 'token:a')), { ok: true });
      assert.deepEqual(await store.take(ask('s2', 'p', 'token:a')), { ok: false, cap: 'holder' });
      assert.deepEqual(await store.take(ask('s3', 'p', 'token:b')), { ok: true });
      assert.deepEqual(await store.take(ask('s4', 'p', 'token:c')), { ok: false, cap: 'project' });
      assert.deepEqual(await store.take(ask('s5', 'q', 'token:c')), { ok: true }, 'another project');
      assert.deepEqual(
        await store.take(ask('s6', 'q', 'token:a')),
        { ok: false, cap: 'holder' },
        "a holder's cap spans its projects",
      );
    });

    test('release → the slot is free again; releasing again or a lease never held changes nothing', async (t) => {
      const store = await open(t, make);
      await store.take(ask('s1', 'p', 'token:a'));
      await store.take(ask('s2', 'p', 'token:b'));
      await store.release(ask('s1', 'p', 'token:a'));
      await store.release(ask('s1', 'p', 'token:a'));
      await store.release(ask('never', 'p', 'token:b'));
      assert.deepEqual(await store.take(ask('s3', 'p', 'token:a')), { ok: true });
      assert.deepEqual(await store.take(ask('s4', 'p', 'token:c')), { ok: false, cap: 'project' });
    });

    test('a lease not renewed → free from its end on, not a millisecond before', async (t) => {
      const store = await open(t, make);
      await store.take(ask('s1', 'p', 'token:a'));
      await store.take(ask('s2', 'p', 'token:b'));
      const before = NOON + LEASE - 1;
      assert.deepEqual(await store.take(ask('s3', 'p', 'token:c', before)), { ok: false, cap: 'project' });
      assert.deepEqual(await store.take(ask('s3', 'p', 'token:c', NOON + LEASE)), { ok: true });
      assert.deepEqual(await store.take(ask('s4', 'p', 'token:a', NOON + LEASE)), { ok: true });
    });

    test('renew → the lease runs to its new end; a lease ended or released is not renewed back', async (t) => {
      const store = await open(t, make);
      const held = ask('s1', 'p', 'token:a');
      await store.take(held);
      assert.equal(await store.renew(held, NOON + 500, NOON + 500 + LEASE), true);
      const later = NOON + LEASE + 100;
      assert.deepEqual(await store.take(ask('s2', 'p', 'token:a', later)), { ok: false, cap: 'holder' });
      assert.equal(await store.renew(held, NOON + 500 + LEASE, NOON + 3 * LEASE), false, 'ended');
      assert.deepEqual(await store.take(ask('s2', 'p', 'token:a', later)), { ok: true });
      await store.release(ask('s2', 'p', 'token:a'));
      assert.equal(await store.renew(ask('s2', 'p', 'token:a'), later, later + LEASE), false, 'released');
      assert.deepEqual(await store.take(ask('s3', 'p', 'token:a', later)), { ok: true });
    });

    test('ten takes of one project at once → exactly two slots', async (t) => {
      const store = await open(t, make);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.take(ask(`s${i}`, 'p', `token:${i}`))),
      );
      assert.equal(outcomes.filter((o) => o.ok).length, 2);
    });

    test('two instances on one store → the third export of a project refused, the caps per deployment', async (t) => {
      const store = await open(t, make);
      const clock = new FakeClock(NOON);
      const [one, two] = [
        createExportSlots({ shared: store, clock }),
        createExportSlots({ shared: store, clock }),
      ];
      t.after(async () => Promise.all([one.close(), two.close()]));
      const first = await one.take({ projectId: 'p', holder: 'token:a' });
      assert.equal((await two.take({ projectId: 'p', holder: 'token:a' })).ok, false);
      assert.equal((await two.take({ projectId: 'p', holder: 'token:b' })).ok, true);
      assert.deepEqual(await two.take({ projectId: 'p', holder: 'token:c' }), { ok: false, cap: 'project' });
      assert.deepEqual(await one.take({ projectId: 'p', holder: 'token:c' }), { ok: false, cap: 'project' });
      assert.deepEqual([one.streaming, two.streaming], [1, 1]);
      assert.ok(first.ok);
      first.release();
      first.release();
      await Promise.resolve();
      assert.equal((await one.take({ projectId: 'p', holder: 'token:c' })).ok, true);
    });

    test('an instance gone without releasing (crashed) → its slots free once their leases end', async (t) => {
      const store = await open(t, make);
      const clock = new FakeClock(NOON);
      const crashed = createExportSlots({ shared: store, clock });
      const other = createExportSlots({ shared: store, clock });
      t.after(async () => other.close());
      assert.ok((await crashed.take({ projectId: 'p', holder: 'token:a' })).ok);
      assert.ok((await crashed.take({ projectId: 'p', holder: 'token:b' })).ok);
      await crashed.close();
      clock.advance(EXPORT_LEASE_MS - 1);
      assert.deepEqual(await other.take({ projectId: 'p', holder: 'token:c' }), {
        ok: false,
        cap: 'project',
      });
      clock.advance(1);
      assert.equal((await other.take({ projectId: 'p', holder: 'token:c' })).ok, true);
    });

    test('an export streaming past its first lease → renewed, still holding its slot', async (t) => {
      const store = await open(t, make);
      const clock = new FakeClock(NOON);
      const renewing = createExportSlots({ shared: store, clock, leaseMs: LEASE, renewEveryMs: 5 });
      const other = createExportSlots({ shared: store, clock, leaseMs: LEASE });
      t.after(async () => Promise.all([renewing.close(), other.close()]));
      assert.ok((await renewing.take({ projectId: 'p', holder: 'token:a' })).ok);
      for (let i = 0; i < 3; i++) {
        clock.advance(LEASE - 1);
        // Several renewals' worth of time for the timer, on any machine.
        await sleep(50);
      }
      assert.deepEqual(await other.take({ projectId: 'p', holder: 'token:a' }), { ok: false, cap: 'holder' });
    });
  });
}
