import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Account, Session } from '../src/storage/account-repository.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const account = (id: string, email = `${id}@example.com`): Account => ({
  id,
  email,
  passwordHash: `scrypt$hash-of-${id}`,
  createdAt: T0,
});

const session = (idDigest: string, accountId: string, expiresAt = T0 + HOUR): Session => ({
  idDigest,
  accountId,
  csrfToken: `csrf-${idDigest}`,
  createdAt: T0,
  expiresAt,
});

export function accountContract(fixture: () => StorageFixture): void {
  it('accounts.create → the account; byEmail finds it; a taken email → undefined', async () => {
    const { accounts } = fixture().storage;
    assert.deepEqual(
      await accounts.create(account('acc_1', 'ann@example.com')),
      account('acc_1', 'ann@example.com'),
    );
    assert.deepEqual(await accounts.byEmail('ann@example.com'), account('acc_1', 'ann@example.com'));
    assert.equal(await accounts.create(account('acc_2', 'ann@example.com')), undefined);
    assert.equal(await accounts.byEmail('bob@example.com'), undefined);
  });

  it('accounts.setPasswordHash → stored; false for an unknown account', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    assert.equal(await accounts.setPasswordHash('acc_1', 'scrypt$new'), true);
    assert.equal((await accounts.byEmail('acc_1@example.com'))!.passwordHash, 'scrypt$new');
    assert.equal(await accounts.setPasswordHash('acc_x', 'scrypt$new'), false);
  });

  it('sessions → found with their account until they expire; removed at once', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    await accounts.createSession(session('s1', 'acc_1'));
    await accounts.createSession(session('s2', 'acc_1'));
    assert.deepEqual(await accounts.findSession('s1', T0), {
      session: session('s1', 'acc_1'),
      account: account('acc_1'),
    });
    assert.equal(await accounts.findSession('s1', T0 + HOUR), undefined, 'expired');
    assert.equal(await accounts.findSession('nope', T0), undefined);
    await accounts.removeSession('s1');
    assert.equal(await accounts.findSession('s1', T0), undefined);
    assert.ok(await accounts.findSession('s2', T0));
  });

  it('purgeSessions → deletes only expired sessions and says how many', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    await accounts.createSession(session('old', 'acc_1', T0 + 1));
    await accounts.createSession(session('new', 'acc_1', T0 + HOUR));
    assert.equal(await accounts.purgeSessions(T0 + 1), 1);
    assert.ok(await accounts.findSession('new', T0 + 2));
  });

  it('accounts.remove → its sessions and memberships go with it at once; the project stays', async () => {
    const { storage } = fixture();
    await storage.accounts.create(account('acc_1'));
    await storage.projects.create(project('acme'));
    await storage.projects.addMember('acc_1', 'prj_acme', T0);
    await storage.accounts.createSession(session('s1', 'acc_1'));
    assert.equal(await storage.accounts.remove('acc_1'), true);
    assert.equal(await storage.accounts.findSession('s1', T0), undefined);
    assert.equal(await storage.projects.isMember('acc_1', 'prj_acme'), false);
    assert.ok(await storage.projects.bySlug('acme'));
    assert.equal(await storage.accounts.remove('acc_1'), false);
  });
}
