import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { projectRecords } from '../src/features/projects/project-repository.ts';
import { ReachedPastTransactionError } from '../src/storage/transaction-context.ts';
import type { SqlExecutor } from '../src/storage/sql-executor.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

class Undone extends Error {}

export function transactionContract(fixture: () => StorageFixture): void {
  it('transaction → a refusal after three reads, beside projects.create started a few microtasks later: the create acknowledged is kept', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    const refused = assert.rejects(
      storage.transaction(async (tx) => {
        for (let read = 0; read < 3; read++) await projectRecords(tx).bySlug('acme');
        throw new Undone('the last owner cannot leave');
      }),
      Undone,
    );
    for (let tick = 0; tick < 3; tick++) await Promise.resolve();
    const created = await storage.projects.create(project('beside'));
    await refused;
    assert.equal(created?.slug, 'beside');
    assert.equal((await storage.projects.bySlug('beside'))?.slug, 'beside');
  });

  it('transaction → a repository built on its executor runs inside it: sees its own rows, and they go with its rollback', async () => {
    const { storage } = fixture();
    await assert.rejects(
      storage.transaction(async (tx) => {
        await projectRecords(tx).create(project('inside'));
        await nextTurn();
        assert.equal((await projectRecords(tx).bySlug('inside'))?.slug, 'inside');
        throw new Undone();
      }),
      Undone,
    );
    assert.equal(await storage.projects.bySlug('inside'), undefined);
  });

  it('transaction → the storage’s executor, a repository of the storage or another transaction used inside its work → ReachedPastTransactionError at once, nothing written past it', async () => {
    const { storage } = fixture();
    await storage.transaction(async (tx) => {
      await projectRecords(tx).create(project('kept'));
      await assert.rejects(storage.projects.create(project('past')), ReachedPastTransactionError);
      await assert.rejects(storage.sql.all('SELECT 1 AS one'), ReachedPastTransactionError);
      await assert.rejects(
        storage.transaction(async () => undefined),
        ReachedPastTransactionError,
      );
      await nextTurn();
      await assert.rejects(storage.pets.get(1n), ReachedPastTransactionError);
    });
    assert.equal((await storage.projects.bySlug('kept'))?.slug, 'kept');
    assert.equal(await storage.projects.bySlug('past'), undefined);
  });

  it('transaction → its executor used after it ended refuses; the storage’s runs again', async () => {
    const { storage } = fixture();
    let leaked: SqlExecutor | undefined;
    await storage.transaction(async (tx) => {
      leaked = tx;
    });
    await assert.rejects(projectRecords(leaked!).create(project('late')), /transaction has ended/);
    assert.equal(await storage.projects.bySlug('late'), undefined);
    assert.equal((await storage.sql.all('SELECT 1 AS one')).length, 1);
  });
}
