import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Passkey, PasskeyChallenge } from '../src/features/identity/passkey-records.ts';
import type { StorageFixture } from './storage-contract.ts';

const T0 = Date.UTC(2026, 0, 1);

const passkey = (id: string, accountId = 'acc_1', overrides: Partial<Passkey> = {}): Passkey => ({
  id,
  accountId,
  publicKey: `pk-${id}`,
  counter: 0,
  transports: ['internal', 'hybrid'],
  name: `Key ${id}`,
  createdAt: T0,
  lastUsedAt: null,
  ...overrides,
});

const challenge = (name: string, overrides: Partial<PasskeyChallenge> = {}): PasskeyChallenge => ({
  challenge: name,
  purpose: 'sign_in',
  binding: 'b1',
  accountId: null,
  createdAt: T0,
  expiresAt: T0 + 300_000,
  ...overrides,
});

async function accounts(fixture: () => StorageFixture) {
  const { storage } = fixture();
  for (const id of ['acc_1', 'acc_2']) {
    await storage.accounts.create({
      id,
      email: `${id}@example.com`,
      passwordHash: 'scrypt$x',
      createdAt: T0,
    });
  }
  return storage.accounts;
}

export function passkeyContract(fixture: () => StorageFixture): void {
  it('second factor → TOTP confirmed or a passkey counts; a factor left out is not counted', async () => {
    const records = await accounts(fixture);
    assert.equal(await records.hasSecondFactor('acc_1'), false);
    await records.addPasskey(passkey('c1'));
    assert.equal(await records.hasSecondFactor('acc_1'), true, 'a passkey alone');
    assert.equal(await records.hasSecondFactor('acc_2'), false, 'another account’s passkey');
    assert.equal(
      await records.hasSecondFactor('acc_1', { passkey: 'c1' }),
      false,
      'its only passkey left out',
    );
    await records.addPasskey(passkey('c2'));
    assert.equal(await records.hasSecondFactor('acc_1', { passkey: 'c1' }), true, 'another passkey remains');
    assert.equal(await records.hasSecondFactor('acc_1', { totp: true }), true);
    await records.beginTwoFactor('acc_2', 'v1.secret', T0);
    assert.equal(await records.hasSecondFactor('acc_2'), false, 'an enrolment not confirmed');
    await records.confirmTwoFactor('acc_2', 1, [], T0);
    assert.equal(await records.hasSecondFactor('acc_2'), true, 'TOTP alone');
    assert.equal(await records.hasSecondFactor('acc_2', { totp: true }), false, 'TOTP left out');
    assert.equal(await records.hasSecondFactor('acc_2', { passkey: 'c1' }), true);
  });

  it('passkeys → added once per credential id, listed per account oldest first, found by id; removed only by their account', async () => {
    const records = await accounts(fixture);
    assert.equal(await records.addPasskey(passkey('c2', 'acc_1', { createdAt: T0 + 5 })), true);
    assert.equal(await records.addPasskey(passkey('c1')), true);
    assert.equal(await records.addPasskey(passkey('c1', 'acc_2')), false, 'a credential id is one passkey');
    assert.equal(await records.addPasskey(passkey('c3', 'acc_2', { transports: [] })), true);
    assert.deepEqual(
      (await records.passkeys('acc_1')).map((p) => p.id),
      ['c1', 'c2'],
    );
    assert.deepEqual(await records.passkey('c1'), passkey('c1'));
    assert.deepEqual((await records.passkey('c3'))?.transports, []);
    assert.equal(await records.passkey('nope'), undefined);
    assert.equal(await records.removePasskey('acc_2', 'c1'), undefined, 'not its own');
    assert.deepEqual(await records.removePasskey('acc_1', 'c1'), passkey('c1'));
    assert.equal(await records.removePasskey('acc_1', 'c1'), undefined);
    assert.deepEqual(
      (await records.passkeys('acc_1')).map((p) => p.id),
      ['c2'],
    );
  });

  it('passkeys → a use records the counter only when it grows (0 stays allowed for counterless authenticators); concurrent uses of one count: one wins', async () => {
    const records = await accounts(fixture);
    await records.addPasskey(passkey('zero'));
    assert.equal(await records.usePasskey('zero', 0, T0 + 1), true);
    assert.equal(await records.usePasskey('zero', 0, T0 + 2), true);
    assert.equal((await records.passkey('zero'))?.lastUsedAt, T0 + 2);
    await records.addPasskey(passkey('counted', 'acc_1', { counter: 5 }));
    assert.equal(await records.usePasskey('counted', 5, T0), false, 'not grown');
    assert.equal(await records.usePasskey('counted', 0, T0), false, 'gone back to 0');
    const raced = await Promise.all([1, 2, 3].map(() => records.usePasskey('counted', 6, T0 + 3)));
    assert.equal(raced.filter(Boolean).length, 1);
    assert.deepEqual(
      {
        counter: (await records.passkey('counted'))?.counter,
        at: (await records.passkey('counted'))?.lastUsedAt,
      },
      { counter: 6, at: T0 + 3 },
    );
    assert.equal(await records.usePasskey('gone', 9, T0), false);
  });

  it('passkey challenges → taken once, only with their purpose and binding, only before they expire; a binding keeps its newest few', async () => {
    const records = await accounts(fixture);
    await records.createPasskeyChallenge(challenge('x1', { accountId: 'acc_1', purpose: 'register' }), 3);
    assert.equal(await records.takePasskeyChallenge('x1', 'sign_in', 'b1', T0), undefined, 'another purpose');
    assert.equal(
      await records.takePasskeyChallenge('x1', 'register', 'b2', T0),
      undefined,
      'another binding',
    );
    assert.equal(
      await records.takePasskeyChallenge('x1', 'register', 'b1', T0 + 300_000),
      undefined,
      'expired',
    );
    const taken = await Promise.all(
      [1, 2, 3].map(() => records.takePasskeyChallenge('x1', 'register', 'b1', T0)),
    );
    assert.deepEqual(
      taken.filter(Boolean),
      [challenge('x1', { accountId: 'acc_1', purpose: 'register' })],
      'once',
    );

    for (let i = 0; i < 5; i++)
      await records.createPasskeyChallenge(challenge(`y${i}`, { createdAt: T0 + i }), 3);
    await records.createPasskeyChallenge(challenge('other', { binding: 'b2' }), 3);
    const left = [];
    for (let i = 0; i < 5; i++)
      left.push((await records.takePasskeyChallenge(`y${i}`, 'sign_in', 'b1', T0)) !== undefined);
    assert.deepEqual(left, [false, false, true, true, true], 'the newest 3 of the binding');
    assert.ok(await records.takePasskeyChallenge('other', 'sign_in', 'b2', T0), 'other bindings untouched');
  });

  it('passkeys → go with their account, and expired challenges with the expired sessions', async () => {
    const { storage } = fixture();
    const records = await accounts(fixture);
    await records.addPasskey(passkey('c1', 'acc_2'));
    await records.createPasskeyChallenge(challenge('mine', { accountId: 'acc_2', purpose: 'register' }), 3);
    await records.createPasskeyChallenge(challenge('old', { expiresAt: T0 + 1 }), 3);
    await records.purgeSessions(T0 + 2, 100);
    assert.equal(await records.takePasskeyChallenge('old', 'sign_in', 'b1', 0), undefined, 'purged');
    await storage.transaction((sql) => sql.run('DELETE FROM accounts WHERE id = $1', ['acc_2']));
    assert.equal(await records.passkey('c1'), undefined);
    assert.equal(await records.takePasskeyChallenge('mine', 'register', 'b1', T0), undefined);
  });
}
