import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIdentityChanges } from '../src/features/identity/identity-changes.ts';
import { FakeClock } from '../src/time/clock.ts';
import type { Account, Session } from '../src/features/identity/account-repository.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const account = (id: string, email = `${id}@example.com`): Account => ({
  id,
  email,
  passwordHash: `scrypt$hash-of-${id}`,
  createdAt: T0,
  devicesValidAfter: 0,
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

  it('accounts.byId → the account; revokeDevices → devicesValidAfter stored', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    assert.deepEqual(await accounts.byId('acc_1'), account('acc_1'));
    assert.equal(await accounts.byId('acc_x'), undefined);
    await accounts.revokeDevices('acc_1', T0 + 5);
    assert.equal((await accounts.byEmail('acc_1@example.com'))!.devicesValidAfter, T0 + 5);
  });

  it('removeSessions → ends every session of the account but the one kept; other accounts keep theirs', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    await accounts.create(account('acc_2'));
    for (const digest of ['a', 'b', 'c']) await accounts.createSession(session(digest, 'acc_1'));
    await accounts.createSession(session('d', 'acc_2'));
    assert.equal(await accounts.countSessions('acc_1', T0), 3);
    assert.equal(await accounts.removeSessions('acc_1', 'b'), 2);
    assert.ok(await accounts.findSession('b', T0));
    assert.equal(await accounts.findSession('a', T0), undefined);
    assert.equal(await accounts.removeSessions('acc_1'), 1);
    assert.equal(await accounts.countSessions('acc_1', T0), 0);
    assert.ok(await accounts.findSession('d', T0));
  });

  it('secret → the first value stored wins, for every caller and every instance', async () => {
    const { storage, open } = fixture();
    assert.equal(await storage.accounts.secret('device', 'first', T0), 'first');
    assert.equal(await storage.accounts.secret('device', 'second', T0), 'first');
    const other = await open();
    assert.equal(await other.accounts.secret('device', 'third', T0), 'first');
    assert.equal(await other.accounts.secret('other', 'own', T0), 'own');
  });

  it('recordFailure → counts in a row, stores the block unless a later one stands, forgets after the window; clear and purge', async () => {
    const { accounts } = fixture().storage;
    const block = (failures: number) => (failures >= 2 ? T0 + failures * 1_000 : 0);
    assert.equal(await accounts.throttle('s'), undefined);
    assert.equal(await accounts.recordFailure('s', T0, T0 - HOUR, block), 1);
    assert.deepEqual(await accounts.throttle('s'), { failures: 1, lastFailureAt: T0, blockedUntil: 0 });
    assert.equal(await accounts.recordFailure('s', T0 + 1, T0 - HOUR, block), 2);
    assert.equal((await accounts.throttle('s'))!.blockedUntil, T0 + 2_000);
    assert.equal(await accounts.recordFailure('s', T0 + 2, T0 - HOUR, () => T0 + 500), 3);
    assert.equal((await accounts.throttle('s'))!.blockedUntil, T0 + 2_000, 'an earlier block never shortens');
    const counts = await Promise.all(
      Array.from({ length: 5 }, () => accounts.recordFailure('s', T0 + 3, T0 - HOUR, block)),
    );
    assert.deepEqual(counts.toSorted(), [4, 5, 6, 7, 8], 'concurrent failures each get their own number');
    assert.equal(await accounts.recordFailure('s', T0 + 2 * HOUR, T0 + HOUR, block), 1, 'forgotten');
    await accounts.recordFailure('old', T0, T0 - HOUR, block);
    assert.equal(await accounts.purgeThrottles(T0 + 1), 1);
    assert.equal(await accounts.throttle('old'), undefined);
    await accounts.clearThrottle('s');
    assert.equal(await accounts.throttle('s'), undefined);
  });

  it('flashes → read once per session and page, replaced by a newer one, gone when expired or with the session; none kept for an ended one', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    await accounts.createSession(session('s1', 'acc_1'));
    await accounts.createSession(session('s2', 'acc_1'));
    await accounts.putFlash('s1', '/keys', 'first', T0 + 10);
    await accounts.putFlash('s1', '/keys', 'second', T0 + 10);
    assert.equal(await accounts.takeFlash('s2', '/keys', T0), undefined, 'another session sees nothing');
    assert.equal(await accounts.takeFlash('s1', '/other', T0), undefined);
    assert.equal(await accounts.takeFlash('s1', '/keys', T0), 'second');
    assert.equal(await accounts.takeFlash('s1', '/keys', T0), undefined, 'once');
    await accounts.putFlash('s1', '/keys', 'late', T0 + 10);
    assert.equal(await accounts.takeFlash('s1', '/keys', T0 + 10), undefined, 'expired');
    await accounts.putFlash('s1', '/keys', 'kept', T0 + 10);
    await accounts.removeSession('s1');
    await accounts.createSession(session('s1', 'acc_1'));
    assert.equal(await accounts.takeFlash('s1', '/keys', T0), undefined, 'gone with its session');
    await accounts.removeSession('s2');
    await accounts.putFlash('s2', '/keys', 'after the end', T0 + 10);
    assert.equal(await accounts.takeFlash('s2', '/keys', T0), undefined, 'an ended session keeps nothing');
  });

  it('purgeSessions → deletes only expired sessions and says how many', async () => {
    const { accounts } = fixture().storage;
    await accounts.create(account('acc_1'));
    await accounts.createSession(session('old', 'acc_1', T0 + 1));
    await accounts.createSession(session('new', 'acc_1', T0 + HOUR));
    assert.equal(await accounts.purgeSessions(T0 + 1), 1);
    assert.ok(await accounts.findSession('new', T0 + 2));
  });

  it('removeAccount → its sessions and memberships go with it at once; the project stays', async () => {
    const { storage } = fixture();
    const remove = async (id: string) =>
      (
        await createIdentityChanges({ storage, clock: new FakeClock(T0) }).removeAccount(
          { kind: 'operator' },
          id,
        )
      ).value.removed;
    await storage.accounts.create(account('acc_1'));
    await storage.projects.create(project('acme'));
    await storage.projects.addMember('acc_1', 'prj_acme', T0, 'developer');
    await storage.accounts.createSession(session('s1', 'acc_1'));
    assert.equal(await remove('acc_1'), true);
    assert.equal(await storage.accounts.findSession('s1', T0), undefined);
    assert.equal(await storage.projects.isMember('acc_1', 'prj_acme'), false);
    assert.ok(await storage.projects.bySlug('acme'));
    assert.equal(await remove('acc_1'), false);
  });
}
