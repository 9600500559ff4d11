import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRateLimiter } from '../ratelimit/limiter.ts';
import { createMemoryStore } from '../ratelimit/memory-store.ts';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/repository.ts';
import { FakeClock } from '../time/clock.ts';
import { hashPassword } from './passwords.ts';
import { createHashingGate, type HashingGate } from './hashing-gate.ts';
import { createSessions, SESSION_TTL_MS, SIGN_IN_LIMITS } from './sessions.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('sessions', () => {
  let dir: string;
  let storage: Storage;
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 12));
  const make = (hashingGate?: HashingGate) =>
    createSessions({
      accounts: storage.accounts,
      limiter: createRateLimiter({ store: createMemoryStore(), clock }),
      clock,
      passwordParams: FAST,
      hashingGate,
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-sessions-'));
    storage = await openStorage(join(dir, 'petstore.db'));
    await storage.migrate();
    await storage.accounts.create({
      id: 'acc_ann',
      email: 'ann@example.com',
      passwordHash: await hashPassword('correct horse battery', FAST),
      createdAt: clock.now(),
    });
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('signIn → a session for the right password (email case and spaces ignored), found by its token until sign-out', async () => {
    const sessions = make();
    const outcome = await sessions.signIn('  Ann@Example.COM ', 'correct horse battery', '127.0.0.1');
    assert.equal(outcome.kind, 'signed_in');
    if (outcome.kind !== 'signed_in') return;
    assert.match(outcome.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(outcome.session.expiresAt, clock.now() + SESSION_TTL_MS);
    assert.notEqual(outcome.session.idDigest, outcome.token, 'only a digest of the token is stored');
    assert.equal((await sessions.current(outcome.token))?.account.email, 'ann@example.com');
    await sessions.signOut(outcome.token);
    assert.equal(await sessions.current(outcome.token), undefined);
  });

  it('signIn → the same refusal for an unknown email and a wrong password; nothing stored', async () => {
    const sessions = make();
    assert.deepEqual(await sessions.signIn('bob@example.com', 'correct horse battery', '10.0.0.1'), {
      kind: 'refused',
    });
    assert.deepEqual(await sessions.signIn('ann@example.com', 'wrong horse battery', '10.0.0.2'), {
      kind: 'refused',
    });
  });

  it('current → undefined for an expired session and for a made-up token', async () => {
    const sessions = make();
    const outcome = await sessions.signIn('ann@example.com', 'correct horse battery', '10.0.0.3');
    assert.equal(outcome.kind, 'signed_in');
    const token = outcome.kind === 'signed_in' ? outcome.token : '';
    assert.equal(await sessions.current('made-up'), undefined);
    clock.advance(SESSION_TTL_MS);
    assert.equal(await sessions.current(token), undefined);
  });

  it(`signIn → throttled after ${SIGN_IN_LIMITS.perEmail.perMinute} tries a minute for one email, from any address`, async () => {
    const sessions = make();
    const outcomes = [];
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail.perMinute + 1; i++) {
      outcomes.push((await sessions.signIn('ann@example.com', `guess ${i} of many`, `10.1.0.${i}`)).kind);
    }
    assert.deepEqual(outcomes.slice(0, -1), Array(SIGN_IN_LIMITS.perEmail.perMinute).fill('refused'));
    const last = await sessions.signIn('ann@example.com', 'correct horse battery', '10.1.0.99');
    assert.equal(last.kind, 'throttled', 'even the right password waits');
  });

  it(`signIn → throttled after ${SIGN_IN_LIMITS.perAddress.perMinute} tries a minute from one address, whatever the email`, async () => {
    const sessions = make();
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress.perMinute; i++) {
      assert.equal(
        (await sessions.signIn(`user${i}@example.com`, 'x'.repeat(12), '10.2.0.1')).kind,
        'refused',
      );
    }
    const throttled = await sessions.signIn('ann@example.com', 'correct horse battery', '10.2.0.1');
    assert.equal(throttled.kind, 'throttled');
    assert.ok(throttled.kind === 'throttled' && throttled.retryAfterSeconds > 0);
  });

  it('signIn → throttled (retry in 1 s) while the password checks are at their limit; the next one after a slot frees proceeds', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 0 });
    const sessions = make(gate);
    let release!: () => void;
    const busy = gate.run(() => new Promise<void>((resolve) => (release = resolve)))!;
    assert.deepEqual(await sessions.signIn('ann@example.com', 'correct horse battery', '10.3.0.1'), {
      kind: 'throttled',
      retryAfterSeconds: 1,
    });
    release();
    await busy;
    assert.equal(
      (await sessions.signIn('ann@example.com', 'correct horse battery', '10.3.0.1')).kind,
      'signed_in',
    );
  });

  it('signIn → an unknown email and a wrong password both wait for their password check before the refusal', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 2 });
    const sessions = make(gate);
    let release!: () => void;
    const busy = gate.run(() => new Promise<void>((resolve) => (release = resolve)))!;
    const settled: string[] = [];
    const unknown = sessions.signIn('nobody@example.com', 'correct horse battery', '10.4.0.1');
    const wrong = sessions.signIn('ann@example.com', 'wrong horse battery', '10.4.0.2');
    void unknown.then(() => settled.push('unknown'));
    void wrong.then(() => settled.push('wrong'));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(settled, [], 'neither answers while its check waits for a slot');
    release();
    await busy;
    assert.deepEqual(await Promise.all([unknown, wrong]), [{ kind: 'refused' }, { kind: 'refused' }]);
  });
});
