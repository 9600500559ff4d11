import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { projectRecords } from '../src/features/projects/project-repository.ts';
import type { Store } from '../src/features/store.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';
import { logged } from './storage-contract-request-log.ts';

/** What comes before a step: nothing, a microtask, a turn of the event loop, a timer. */
type Pause = 'none' | 'microtask' | 'turn' | 'timer';

type Operation =
  | { kind: 'transaction'; start: Pause[]; rows: Pause[]; commit: boolean }
  | { kind: 'write' | 'pet' | 'log' | 'read'; start: Pause[] };

const pause = fc.constantFrom<Pause>('none', 'microtask', 'turn', 'timer');
const start = fc.array(pause, { maxLength: 3 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('transaction' as const),
    start,
    rows: fc.array(pause, { minLength: 1, maxLength: 3 }),
    commit: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('write' as const, 'pet' as const, 'log' as const, 'read' as const),
    start,
  }),
);

async function wait(pauses: Pause[]): Promise<void> {
  for (const step of pauses) {
    if (step === 'microtask') await Promise.resolve();
    else if (step === 'turn') await nextTurn();
    else if (step === 'timer') await sleep(1);
  }
}

/** What a run expects to find afterwards, and what it must never have seen. */
interface Expected {
  present: Set<string>;
  absent: Set<string>;
  pets: Set<string>;
  requests: Set<string>;
  seen: Set<string>;
}

class Undone extends Error {}

/** Runs one operation; resolves when it was acknowledged, rejects when it was refused. */
async function perform(storage: Store, op: Operation, name: string, expected: Expected): Promise<void> {
  await wait(op.start);
  switch (op.kind) {
    case 'write':
      expected.present.add(name);
      await storage.projects.create(project(name));
      return;
    case 'pet':
      expected.pets.add(name);
      await storage.pets.create({ name, categoryId: 1n });
      return;
    case 'log':
      expected.requests.add(name);
      await storage.requestLog.write([logged({ projectId: 'prj_logged', requestId: name })]);
      return;
    case 'read':
      for (const found of await storage.projects.list()) expected.seen.add(found.slug);
      return;
    case 'transaction': {
      const rows = op.rows.map((_, row) => `${name}-${row}`);
      for (const row of rows) (op.commit ? expected.present : expected.absent).add(row);
      await storage.transaction(async (tx) => {
        for (const [row, before] of op.rows.entries()) {
          await wait([before]);
          await projectRecords(tx).create(project(rows[row]!));
        }
        if (!op.commit) throw new Undone(`${name} refused`);
      });
    }
  }
}

/**
 * Nothing acknowledged is lost: transactions that commit or roll back (awaiting between their
 * statements), plain writes, pet creates (SQLite's group commit), request-log batches and reads, started
 * in random interleavings. Afterwards every acknowledged write is there, nothing of a rolled-back
 * transaction is, nothing was refused but the rollbacks, and no read saw a row that was rolled back.
 */
export function writePathContract(fixture: () => StorageFixture): void {
  it('write path → random interleavings of transactions, writes, pet creates and log batches: every acknowledged write kept, every rolled-back one gone', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('logged', { plan: 'pro' }));
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 2, maxLength: 10 }), async (ops) => {
        const run = `r${runs++}`;
        const expected: Expected = {
          present: new Set(),
          absent: new Set(),
          pets: new Set(),
          requests: new Set(),
          seen: new Set(),
        };
        const outcomes = await Promise.allSettled(
          ops.map((op, index) => perform(storage, op, `${run}-${index}`, expected)),
        );
        for (const [index, outcome] of outcomes.entries()) {
          const op = ops[index]!;
          if (op.kind === 'transaction' && !op.commit) {
            assert.ok(
              outcome.status === 'rejected' && outcome.reason instanceof Undone,
              `${index}: rolled back by its own refusal`,
            );
          } else {
            assert.equal(
              outcome.status,
              'fulfilled',
              `${index} (${op.kind}) refused: ${outcome.status === 'rejected' ? outcome.reason : ''}`,
            );
          }
        }
        const slugs = new Set((await storage.projects.list()).map((found) => found.slug));
        for (const name of expected.present) assert.ok(slugs.has(name), `${name} acknowledged, then lost`);
        for (const name of expected.absent) assert.ok(!slugs.has(name), `${name} rolled back, yet stored`);
        for (const name of expected.seen) {
          assert.ok(!expected.absent.has(name), `${name} read before it was rolled back`);
        }
        const pets = await storage.sql.all('SELECT name FROM pets WHERE name LIKE $1', [`${run}-%`]);
        assert.deepEqual(new Set(pets.map((row) => row.name as string)), expected.pets);
        const requests = await storage.requestLog.list({ projectId: 'prj_logged', limit: 100 });
        const logged = new Set(requests.map((row) => row.requestId).filter((id) => id.startsWith(`${run}-`)));
        assert.deepEqual(logged, expected.requests);
      }),
      { numRuns: 40 },
    );
  });
}
