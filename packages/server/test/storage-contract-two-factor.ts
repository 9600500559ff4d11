import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIdentityChanges } from '../src/features/identity/identity-changes.ts';
import { FakeClock } from '../src/time/clock.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);

async function withAccount(fixture: () => StorageFixture, id = 'acc_1') {
  const { storage } = fixture();
  await storage.accounts.create({ id, email: `${id}@example.com`, passwordHash: 'scrypt$x', createdAt: T0 });
  return storage.accounts;
}

export function twoFactorContract(fixture: () => StorageFixture): void {
  it('two-factor → begin while pending replaces the secret; confirm turns it on once, with its recovery codes; begin then refuses', async () => {
    const accounts = await withAccount(fixture);
    assert.equal(await accounts.twoFactor('acc_1'), undefined);
    assert.equal(await accounts.beginTwoFactor('acc_1', 'v1.first', T0), true);
    assert.equal(await accounts.beginTwoFactor('acc_1', 'v1.second', T0 + 1), true);
    assert.deepEqual(await accounts.twoFactor('acc_1'), {
      sealedSecret: 'v1.second',
      confirmedAt: null,
      lastStep: -1,
      createdAt: T0 + 1,
    });
    assert.equal(await accounts.useTwoFactorStep('acc_1', 5), false, 'no step counts while pending');
    assert.equal(await accounts.confirmTwoFactor('acc_1', 100, ['d1', 'd2', 'd3'], T0 + 2), true);
    assert.equal(await accounts.confirmTwoFactor('acc_1', 101, ['d4'], T0 + 3), false, 'once');
    assert.deepEqual(await accounts.twoFactor('acc_1'), {
      sealedSecret: 'v1.second',
      confirmedAt: T0 + 2,
      lastStep: 100,
      createdAt: T0 + 1,
    });
    assert.equal(await accounts.recoveryCodesLeft('acc_1'), 3);
    assert.equal(await accounts.beginTwoFactor('acc_1', 'v1.third', T0 + 4), false);
    assert.equal((await accounts.twoFactor('acc_1'))!.sealedSecret, 'v1.second');
  });

  it('two-factor → a step is used once, and never one at or before the last one used; concurrent uses of one step: one wins', async () => {
    const accounts = await withAccount(fixture);
    await accounts.beginTwoFactor('acc_1', 'v1.s', T0);
    await accounts.confirmTwoFactor('acc_1', 100, [], T0);
    assert.equal(await accounts.useTwoFactorStep('acc_1', 100), false, 'the confirming code is used');
    assert.equal(await accounts.useTwoFactorStep('acc_1', 99), false);
    const raced = await Promise.all(Array.from({ length: 5 }, () => accounts.useTwoFactorStep('acc_1', 101)));
    assert.equal(raced.filter(Boolean).length, 1);
    assert.equal(await accounts.useTwoFactorStep('acc_1', 103), true);
    assert.equal(await accounts.useTwoFactorStep('acc_1', 102), false);
  });

  it('recovery codes → replaced only while two-factor is on: the old ones, used or not, stop working at once', async () => {
    const accounts = await withAccount(fixture);
    assert.equal(await accounts.replaceRecoveryCodes('acc_1', ['n1']), false, 'off: nothing to replace');
    await accounts.beginTwoFactor('acc_1', 'v1.s', T0);
    assert.equal(await accounts.replaceRecoveryCodes('acc_1', ['n1']), false, 'pending: not yet');
    await accounts.confirmTwoFactor('acc_1', 1, ['d1', 'd2', 'd3'], T0);
    assert.equal(await accounts.useRecoveryCode('acc_1', 'd1', T0), true);
    assert.equal(await accounts.replaceRecoveryCodes('acc_1', ['n1', 'n2']), true);
    assert.equal(await accounts.recoveryCodesLeft('acc_1'), 2);
    assert.equal(await accounts.useRecoveryCode('acc_1', 'd2', T0), false, 'an old unused one');
    assert.equal(await accounts.useRecoveryCode('acc_1', 'n2', T0), true);
    assert.equal(await accounts.recoveryCodesLeft('acc_1'), 1);
  });

  it('recovery codes → each digest works once; they are the account’s own; removeTwoFactor takes them and the secret', async () => {
    const accounts = await withAccount(fixture);
    await withAccount(fixture, 'acc_2');
    await accounts.beginTwoFactor('acc_1', 'v1.s', T0);
    await accounts.confirmTwoFactor('acc_1', 1, ['d1', 'd2'], T0);
    assert.equal(await accounts.useRecoveryCode('acc_2', 'd1', T0), false);
    const raced = await Promise.all([1, 2, 3].map(() => accounts.useRecoveryCode('acc_1', 'd1', T0)));
    assert.deepEqual(raced.filter(Boolean).length, 1);
    assert.equal(await accounts.recoveryCodesLeft('acc_1'), 1);
    assert.equal(await accounts.removeTwoFactor('acc_1'), true);
    assert.equal(await accounts.twoFactor('acc_1'), undefined);
    assert.equal(await accounts.useRecoveryCode('acc_1', 'd2', T0), false);
    assert.equal(await accounts.removeTwoFactor('acc_1'), false);
  });

  it('recovery codes → a passkey alone keeps them: replaced with it, kept when TOTP goes, dropped with the last second factor', async () => {
    const accounts = await withAccount(fixture);
    const key = (id: string) => ({
      id,
      accountId: 'acc_1',
      publicKey: `pk-${id}`,
      counter: 0,
      transports: [],
      name: id,
      createdAt: T0,
      lastUsedAt: null,
    });
    await accounts.addPasskey(key('k1'));
    assert.equal(
      await accounts.replaceRecoveryCodes('acc_1', ['p1', 'p2']),
      true,
      'a passkey is a second factor',
    );
    assert.equal(await accounts.dropRecoveryCodesWithoutSecondFactor('acc_1'), 0, 'the passkey remains');
    await accounts.beginTwoFactor('acc_1', 'v1.s', T0);
    await accounts.confirmTwoFactor('acc_1', 1, ['d1', 'd2', 'd3'], T0);
    assert.equal(await accounts.removeTwoFactor('acc_1'), true);
    assert.equal(await accounts.recoveryCodesLeft('acc_1'), 3, 'TOTP off, a passkey left: the codes stay');
    assert.equal(await accounts.useRecoveryCode('acc_1', 'd1', T0), true);
    await accounts.addPasskey(key('k2'));
    await accounts.removePasskey('acc_1', 'k1');
    assert.equal(await accounts.dropRecoveryCodesWithoutSecondFactor('acc_1'), 0, 'k2 remains');
    await accounts.removePasskey('acc_1', 'k2');
    assert.equal(await accounts.dropRecoveryCodesWithoutSecondFactor('acc_1'), 3, 'used ones too');
    assert.equal(await accounts.recoveryCodesLeft('acc_1'), 0);
    assert.equal(await accounts.replaceRecoveryCodes('acc_1', ['n1']), false, 'no second factor left');
  });

  it('two-factor challenges → found until they expire; removed once; purged with expired sessions; gone with the account', async () => {
    const accounts = await withAccount(fixture);
    const challenge = { idDigest: 'c1', accountId: 'acc_1', next: '/dashboard', expiresAt: T0 + 1_000 };
    await accounts.createTwoFactorChallenge(challenge);
    await accounts.createTwoFactorChallenge({ ...challenge, idDigest: 'c2' });
    assert.deepEqual(await accounts.twoFactorChallenge('c1', T0), challenge);
    assert.equal(await accounts.twoFactorChallenge('c1', T0 + 1_000), undefined, 'expired');
    const removed = await Promise.all([
      accounts.removeTwoFactorChallenge('c1'),
      accounts.removeTwoFactorChallenge('c1'),
    ]);
    assert.deepEqual(removed.sort(), [false, true]);
    await accounts.purgeSessions(T0 + 1_000);
    assert.equal(await accounts.twoFactorChallenge('c2', T0), undefined, 'purged');
    await accounts.createTwoFactorChallenge({ ...challenge, idDigest: 'c3' });
    await accounts.beginTwoFactor('acc_1', 'v1.s', T0);
    const { storage } = fixture();
    await createIdentityChanges({ storage, clock: new FakeClock(T0) }).removeAccount(
      { kind: 'operator' },
      'acc_1',
    );
    assert.equal(await accounts.twoFactorChallenge('c3', T0), undefined);
    assert.equal(await accounts.twoFactor('acc_1'), undefined);
  });

  it('projects → two-factor required on and off, per project', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    await storage.projects.create(project('other'));
    const acme = (await storage.projects.bySlug('acme'))!;
    assert.equal(await storage.accounts.twoFactorRequired(acme.id), false);
    await storage.accounts.setTwoFactorRequired(acme.id, true, T0);
    await storage.accounts.setTwoFactorRequired(acme.id, true, T0 + 1);
    assert.equal(await storage.accounts.twoFactorRequired(acme.id), true);
    assert.equal(
      await storage.accounts.twoFactorRequired((await storage.projects.bySlug('other'))!.id),
      false,
    );
    await storage.accounts.setTwoFactorRequired(acme.id, false, T0);
    assert.equal(await storage.accounts.twoFactorRequired(acme.id), false);
  });

  it('projects → the member projects requiring two-factor of an account: its own only, by name', async () => {
    const { storage } = fixture();
    const accounts = await withAccount(fixture);
    await withAccount(fixture, 'acc_2');
    for (const slug of ['zed', 'alpha', 'free', 'elsewhere']) {
      await storage.projects.create(project(slug, { name: `Project ${slug}` }));
    }
    for (const slug of ['zed', 'alpha', 'free']) await storage.projects.addMember('acc_1', `prj_${slug}`, T0);
    await storage.projects.addMember('acc_2', 'prj_elsewhere', T0);
    for (const slug of ['zed', 'alpha', 'elsewhere']) {
      await accounts.setTwoFactorRequired(`prj_${slug}`, true, T0);
    }
    assert.deepEqual(await accounts.memberProjectsRequiringTwoFactor('acc_1'), [
      { slug: 'alpha', name: 'Project alpha' },
      { slug: 'zed', name: 'Project zed' },
    ]);
    assert.deepEqual(await accounts.memberProjectsRequiringTwoFactor('acc_2'), [
      { slug: 'elsewhere', name: 'Project elsewhere' },
    ]);
  });
}
