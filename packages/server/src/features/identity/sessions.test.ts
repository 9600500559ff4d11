import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createRateLimiter } from '../../ratelimit/limiter.ts';
import { createMemoryStore } from '../../ratelimit/memory-store.ts';
import type { Store } from '../store.ts';
import { FakeClock } from '../../time/clock.ts';
import { createHashingGate, type HashingGate } from './hashing-gate.ts';
import { createIdentityChanges } from './identity-changes.ts';
import { changePassword } from './password-change.ts';
import { hashPassword } from './passwords.ts';
import { createSessions, SESSION_TTL_MS, SIGN_IN_LIMITS } from './sessions.ts';
import { THROTTLE_POLICIES, waitAfter } from './sign-in-throttle.ts';
import { openStoreAt } from '../store.ts';
import { TEST_PASSWORD_STRENGTH } from '../../../test/password-settings.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const turn = () => new Promise((resolve) => setImmediate(resolve));
const PASSWORD = 'correct horse battery';

describe('sessions', () => {
  let dir: string;
  let storage: Store;
  let email: string;
  let n = 0;
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 12));
  const make = (hashingGate?: HashingGate) =>
    createSessions({
      accounts: storage.accounts,
      limiter: createRateLimiter({ store: createMemoryStore(), clock }),
      clock,
      passwordParams: FAST,
      passwordStrength: TEST_PASSWORD_STRENGTH,
      hashingGate,
      identity: createIdentityChanges({ storage, clock }),
    });
  const from = (clientAddress: string, deviceCookie?: string) => ({ clientAddress, deviceCookie });
  /** Signs in with the right password from an unknown device: the browser's new device cookie. */
  const knownDevice = async (sessions: ReturnType<typeof make>, address = '192.0.2.1') => {
    const outcome = await sessions.signIn(email, PASSWORD, from(address));
    assert.equal(outcome.kind, 'signed_in');
    return outcome.kind === 'signed_in' ? outcome.deviceCookie : '';
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-sessions-'));
    storage = await openStoreAt(join(dir, 'petstore.db'));
    await storage.migrate();
  });
  // Each test has its own account, so no test's failures throttle another's.
  beforeEach(async () => {
    email = `ann${++n}@example.com`;
    await storage.accounts.create({
      id: `acc_ann${n}`,
      email,
      passwordHash: await hashPassword(PASSWORD, FAST),
      createdAt: clock.now(),
    });
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('signIn → a session for the right password (email case and spaces ignored), found by its token until sign-out', async () => {
    const sessions = make();
    const outcome = await sessions.signIn(`  ${email.toUpperCase()} `, PASSWORD, from('127.0.0.1'));
    assert.equal(outcome.kind, 'signed_in');
    if (outcome.kind !== 'signed_in') return;
    assert.match(outcome.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(outcome.session.expiresAt, clock.now() + SESSION_TTL_MS);
    assert.notEqual(outcome.session.idDigest, outcome.token, 'only a digest of the token is stored');
    assert.equal(outcome.device, 'unknown');
    assert.match(outcome.deviceCookie, /^v1\.acc_ann\d+\.[0-9a-z]+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    assert.equal((await sessions.current(outcome.token))?.account.email, email);
    await sessions.signOut(outcome.token);
    assert.equal(await sessions.current(outcome.token), undefined);
  });

  it('signIn → the same refusal for an unknown email and a wrong password; nothing stored', async () => {
    const sessions = make();
    const unknown = await sessions.signIn('bob@example.com', PASSWORD, from('10.0.0.1'));
    const wrong = await sessions.signIn(email, 'wrong horse battery', from('10.0.0.2'));
    assert.deepEqual([unknown.kind, wrong.kind], ['refused', 'refused']);
  });

  it('current → undefined for an expired session and for a made-up token', async () => {
    const sessions = make();
    const outcome = await sessions.signIn(email, PASSWORD, from('10.0.0.3'));
    const token = outcome.kind === 'signed_in' ? outcome.token : '';
    assert.equal(await sessions.current('made-up'), undefined);
    clock.advance(SESSION_TTL_MS);
    assert.equal(await sessions.current(token), undefined);
  });

  it('waitAfter → free failures, then 1 s doubling to at most 15 min: never a day-long lockout', () => {
    const { email: policy } = THROTTLE_POLICIES;
    const waits = Array.from({ length: 20 }, (_, i) => waitAfter(i + 1, policy) / 1_000);
    assert.deepEqual(waits, [0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900, 900]);
    assert.equal(waitAfter(1_000_000, policy), 15 * 60_000);
  });

  it(`signIn → an unknown device waits after ${THROTTLE_POLICIES.email.free} failures for the email from any addresses, growing with each; the wait ends`, async () => {
    const sessions = make();
    for (let i = 0; i < THROTTLE_POLICIES.email.free; i++) {
      assert.equal((await sessions.signIn(email, `guess ${i} of many`, from(`10.1.0.${i}`))).kind, 'refused');
    }
    assert.equal((await sessions.signIn(email, 'guess 5 of many', from('10.1.0.5'))).kind, 'refused');
    const waiting = await sessions.signIn(email, PASSWORD, from('10.1.0.99'));
    assert.deepEqual(
      [waiting.kind, waiting.kind === 'throttled' && waiting.retryAfterSeconds],
      ['throttled', 1],
    );
    assert.equal(waiting.kind === 'throttled' && waiting.reason, 'email', 'even the right password waits');
    clock.advance(1_000);
    assert.equal((await sessions.signIn(email, 'guess 6 of many', from('10.1.0.6'))).kind, 'refused');
    const longer = await sessions.signIn(email, PASSWORD, from('10.1.0.99'));
    assert.equal(longer.kind === 'throttled' && longer.retryAfterSeconds, 2, 'the wait doubled');
    clock.advance(2_000);
    assert.equal((await sessions.signIn(email, PASSWORD, from('10.1.0.99'))).kind, 'signed_in');
    assert.equal(
      (await sessions.signIn(email, 'guess 7 of many', from('10.1.0.7'))).kind,
      'refused',
      'a success forgets the failures',
    );
  });

  it('signIn → a device that signed in before signs in with 50 failures from other addresses behind it', async () => {
    const sessions = make();
    const device = await knownDevice(sessions);
    const kinds = new Set<string>();
    for (let i = 0; i < 50; i++) {
      kinds.add((await sessions.signIn(email, `guess ${i} of many`, from(`10.2.${i}.1`))).kind);
    }
    assert.deepEqual([...kinds].sort(), ['refused', 'throttled']);
    assert.equal((await sessions.signIn(email, PASSWORD, from('10.2.99.1'))).kind, 'throttled');
    const owner = await sessions.signIn(email, PASSWORD, from('192.0.2.1', device));
    assert.equal(owner.kind, 'signed_in');
    assert.equal(owner.kind === 'signed_in' && owner.device, 'known');
  });

  it('signIn → a known device is throttled by its own failures only: after 10 it counts as unknown until its wait ends', async () => {
    const sessions = make();
    const device = await knownDevice(sessions);
    for (let i = 0; i < THROTTLE_POLICIES.device.free + 1; i++) {
      const outcome = await sessions.signIn(email, `typo ${i} of mine`, from('192.0.2.1', device));
      assert.deepEqual([outcome.kind, outcome.device], ['refused', 'known']);
    }
    const locked = await sessions.signIn(email, 'typo again of mine', from('192.0.2.1', device));
    assert.deepEqual([locked.kind, locked.device], ['refused', 'locked']);
    clock.advance(1_000);
    const back = await sessions.signIn(email, PASSWORD, from('192.0.2.1', device));
    assert.deepEqual([back.kind, back.device], ['signed_in', 'known']);
  });

  it('signIn → a forged, altered or foreign device cookie, or one issued before a password change, is an unknown device', async () => {
    const sessions = make();
    const device = await knownDevice(sessions);
    const other = `other${n}@example.com`;
    await storage.accounts.create({
      id: `acc_other${n}`,
      email: other,
      passwordHash: await hashPassword(PASSWORD, FAST),
      createdAt: clock.now(),
    });
    const otherDevice = await sessions.signIn(other, PASSWORD, from('192.0.2.2'));
    const foreign = otherDevice.kind === 'signed_in' ? otherDevice.deviceCookie : '';
    const altered = device.replace(/\.[0-9a-z]+\./, '.0.');
    for (const cookie of [
      foreign,
      altered,
      `${device}x`,
      'v1.acc_x.1.AAAAAAAAAAAAAAAAAAAAAA.' + 'A'.repeat(43),
    ]) {
      const outcome = await sessions.signIn(email, PASSWORD, from('192.0.2.1', cookie));
      assert.equal(outcome.device, 'unknown', cookie);
    }
    clock.advance(1);
    await storage.accounts.revokeDevices(`acc_ann${n}`, clock.now());
    assert.equal((await sessions.signIn(email, PASSWORD, from('192.0.2.1', device))).device, 'unknown');
  });

  it(`signIn → throttled after ${SIGN_IN_LIMITS.perAddress.perMinute} tries a minute from one address, whatever the email; a known device is not`, async () => {
    const sessions = make();
    const device = await knownDevice(sessions, '10.3.0.1');
    for (let i = 1; i < SIGN_IN_LIMITS.perAddress.perMinute; i++) {
      assert.equal(
        (await sessions.signIn(`user${i}@example.com`, 'x'.repeat(12), from('10.3.0.1'))).kind,
        'refused',
      );
    }
    const throttled = await sessions.signIn(email, PASSWORD, from('10.3.0.1'));
    assert.equal(throttled.kind === 'throttled' && throttled.reason, 'address');
    assert.ok(throttled.kind === 'throttled' && throttled.retryAfterSeconds > 0);
    assert.equal((await sessions.signIn(email, PASSWORD, from('10.3.0.1', device))).kind, 'signed_in');
  });

  it('signIn → throttled (busy, retry in 1 s) while the password checks are full; the next one after a slot frees proceeds', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 0, perLane: 1 });
    const sessions = make(gate);
    let release!: () => void;
    const busy = gate.run(
      { lane: 'test', priority: false },
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const outcome = await sessions.signIn(email, PASSWORD, from('10.4.0.1'));
    assert.deepEqual(outcome.kind === 'throttled' && [outcome.reason, outcome.retryAfterSeconds], [
      'busy',
      1,
    ]);
    release();
    await busy;
    assert.equal((await sessions.signIn(email, PASSWORD, from('10.4.0.1'))).kind, 'signed_in');
  });

  it('signIn → 30 concurrent wrong passwords from 30 addresses fill the queue, and a known device still signs in', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 16, perLane: 2 });
    const sessions = make(gate);
    const device = await knownDevice(sessions);
    let release!: () => void;
    const busy = gate.run(
      { lane: 'test', priority: false },
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    let refused = 0;
    const attackers = Array.from({ length: 30 }, (_, i) =>
      sessions.signIn(email, `guess ${i} of many`, from(`10.5.${i}.1`)).then((outcome) => {
        if (outcome.kind === 'throttled') refused++;
        return outcome;
      }),
    );
    while (gate.load().waiting < 16 || refused < 14) await turn();
    const owner = sessions.signIn(email, PASSWORD, from('192.0.2.1', device));
    let answered = false;
    void owner.then(() => (answered = true));
    while (refused < 15 && !answered) await turn();
    release();
    await busy;
    assert.equal((await owner).kind, 'signed_in');
    const kinds = (await Promise.all(attackers)).map((outcome) => outcome.kind);
    assert.equal(kinds.filter((kind) => kind === 'throttled').length, 15, 'queue of 16, one evicted');
  });

  it('signIn → an unknown email and a wrong password both wait for their password check before the refusal', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 2, perLane: 2 });
    const sessions = make(gate);
    let release!: () => void;
    const busy = gate.run(
      { lane: 'test', priority: false },
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const settled: string[] = [];
    const unknown = sessions.signIn('nobody@example.com', PASSWORD, from('10.6.0.1'));
    const wrong = sessions.signIn(email, 'wrong horse battery', from('10.6.0.2'));
    void unknown.then(() => settled.push('unknown'));
    void wrong.then(() => settled.push('wrong'));
    while (gate.load().waiting < 2) await turn();
    assert.deepEqual(settled, [], 'neither answers while its check waits for a slot');
    release();
    await busy;
    assert.deepEqual(
      (await Promise.all([unknown, wrong])).map((o) => o.kind),
      ['refused', 'refused'],
    );
  });

  it('changePassword → needs the current password; refuses a weak one with the reason; ends the other sessions and revokes other devices', async () => {
    const sessions = make();
    const here = await sessions.signIn(email, PASSWORD, from('192.0.2.1'));
    const elsewhere = await sessions.signIn(email, PASSWORD, from('192.0.2.9'));
    assert.ok(here.kind === 'signed_in' && elsewhere.kind === 'signed_in');
    const deps = {
      sessions,
      clock,
      identity: createIdentityChanges({ storage, clock }),
    };
    const signedIn = (await sessions.current(here.token))!;
    assert.deepEqual(await changePassword(deps, signedIn, 'not my password', 'a-new-long-passphrase'), {
      kind: 'wrong_password',
    });
    assert.deepEqual(await changePassword(deps, signedIn, PASSWORD, 'password1234'), {
      kind: 'refused',
      problem:
        'the password is too easy to guess (this is similar to a commonly used password): use a longer phrase of unrelated words',
    });
    clock.advance(1);
    const changed = await changePassword(deps, signedIn, PASSWORD, 'a-new-long-passphrase');
    assert.equal(changed.kind, 'changed');
    assert.equal(changed.kind === 'changed' && changed.endedSessions, 1);
    assert.ok(await sessions.current(here.token), 'this session stays');
    assert.equal(await sessions.current(elsewhere.token), undefined);
    const old = await sessions.signIn(
      email,
      'a-new-long-passphrase',
      from('192.0.2.9', elsewhere.deviceCookie),
    );
    assert.deepEqual([old.kind, old.device], ['signed_in', 'unknown'], 'devices from before are unknown');
    const fresh = changed.kind === 'changed' ? changed.deviceCookie : '';
    assert.equal(
      (await sessions.signIn(email, 'a-new-long-passphrase', from('192.0.2.1', fresh))).device,
      'known',
    );
    assert.equal((await sessions.signIn(email, PASSWORD, from('192.0.2.1'))).kind, 'refused');
  });
});
