import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Store } from '../store.ts';
import { FakeClock } from '../../time/clock.ts';
import { createIdentityChanges } from './identity-changes.ts';
import { createSignInThrottle, THROTTLE_POLICIES } from './sign-in-throttle.ts';
import { createTwoFactor, RECOVERY_CODE_COUNT, type TwoFactor, TOTP_SETTINGS } from './two-factor.ts';
import { createSecretBox } from './two-factor-secrets.ts';
import { openStoreAt } from '../store.ts';

/** The code an authenticator app shows for `secret` at `at`, by the same library. */
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), timestamp: at });

describe('two-factor sign-in (TOTP)', () => {
  let dir: string;
  let storage: Store;
  let twoFactor: TwoFactor;
  let n = 0;
  let id: string;
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0, 10));
  const key = randomBytes(32);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-totp-'));
    storage = await openStoreAt(join(dir, 'petstore.db'));
    await storage.migrate();
    twoFactor = createTwoFactor({
      accounts: storage.accounts,
      clock,
      throttle: createSignInThrottle(storage.accounts, clock),
      box: createSecretBox(async () => key),
      identity: createIdentityChanges({ storage, clock }),
    });
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    id = `acc_${++n}`;
    clock.advance(10 * 60_000);
    await storage.accounts.create({ id, email: `${id}@example.com`, passwordHash: 'scrypt$x', createdAt: 0 });
  });

  /** The account acting on itself. */
  const me = () => ({ kind: 'account' as const, account: { id, email: `${id}@example.com` }, address: null });

  /** Enrols the account and confirms with the current code: its secret and recovery codes. */
  const enrol = async () => {
    const enrolment = (await twoFactor.enrolment({ id, email: `${id}@example.com` }))!;
    const confirmed = await twoFactor.confirm(me(), codeAt(enrolment.secret, clock.now()));
    assert.equal(confirmed.kind, 'confirmed');
    return { secret: enrolment.secret, codes: confirmed.kind === 'confirmed' ? confirmed.recoveryCodes : [] };
  };

  it('enrolment → a 160-bit base32 secret and its otpauth:// URI; shown again until confirmed; the stored secret is sealed', async () => {
    const enrolment = (await twoFactor.enrolment({ id, email: `${id}@example.com` }))!;
    assert.match(enrolment.secret, /^[A-Z2-7]{32}$/);
    assert.equal(
      enrolment.uri,
      `otpauth://totp/Petstore:${id}%40example.com?issuer=Petstore&secret=${enrolment.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    assert.deepEqual(
      await twoFactor.enrolment({ id, email: `${id}@example.com` }),
      enrolment,
      'a reload shows the same',
    );
    const stored = (await storage.accounts.twoFactor(id))!;
    assert.ok(!stored.sealedSecret.includes(enrolment.secret));
    assert.match(stored.sealedSecret, /^v1\.[A-Za-z0-9_-]+$/);
    assert.equal(await twoFactor.enabled(id), false);
  });

  it('confirm → a wrong code is refused and it stays off; the current code turns it on with ten recovery codes, stored as digests', async () => {
    const enrolment = (await twoFactor.enrolment({ id, email: `${id}@example.com` }))!;
    assert.deepEqual(await twoFactor.confirm(me(), '000000'), { kind: 'wrong_code' });
    assert.equal(await twoFactor.enabled(id), false);
    const confirmed = await twoFactor.confirm(me(), codeAt(enrolment.secret, clock.now()));
    assert.equal(confirmed.kind, 'confirmed');
    const codes = confirmed.kind === 'confirmed' ? confirmed.recoveryCodes : [];
    assert.equal(codes.length, RECOVERY_CODE_COUNT);
    for (const code of codes) assert.match(code, /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    assert.equal(new Set(codes).size, RECOVERY_CODE_COUNT);
    assert.equal(await twoFactor.enabled(id), true);
    assert.equal(await twoFactor.recoveryCodesLeft(id), RECOVERY_CODE_COUNT);
    assert.equal(await twoFactor.enrolment({ id, email: 'x' }), undefined, 'no second enrolment');
  });

  it('verify → the current code once; the code of the step before or after (clock drift); not two steps away; a reused code refused', async () => {
    const { secret } = await enrol();
    clock.advance(30_000);
    const now = clock.now();
    assert.deepEqual(
      await twoFactor.verify(id, codeAt(secret, now - 30_000)),
      { kind: 'reused_code' },
      'the confirming step is used',
    );
    assert.deepEqual(
      await twoFactor.verify(id, codeAt(secret, now + 60_000)),
      { kind: 'wrong_code' },
      'two steps ahead',
    );
    assert.deepEqual(await twoFactor.verify(id, codeAt(secret, now)), { kind: 'ok', recovery: false });
    assert.deepEqual(
      await twoFactor.verify(id, codeAt(secret, now)),
      { kind: 'reused_code' },
      'reused within its window',
    );
    assert.deepEqual(
      await twoFactor.verify(id, ` ${codeAt(secret, now + 30_000).replace(/(\d{3})/, '$1 ')} `),
      {
        kind: 'ok',
        recovery: false,
      },
    );
    assert.deepEqual(
      await twoFactor.verify(id, codeAt(secret, now)),
      { kind: 'reused_code' },
      'an earlier step after a later one',
    );
  });

  it('verify → each recovery code once, typed in any case or spacing; the count goes down', async () => {
    const { codes } = await enrol();
    assert.deepEqual(await twoFactor.verify(id, codes[0]!.toUpperCase().replace(/-/g, ' ')), {
      kind: 'ok',
      recovery: true,
    });
    assert.deepEqual(await twoFactor.verify(id, codes[0]!), { kind: 'wrong_code' });
    assert.equal(await twoFactor.recoveryCodesLeft(id), RECOVERY_CODE_COUNT - 1);
    assert.deepEqual(await twoFactor.verify(id, 'aaaa-bbbb-cccc-dddd'), { kind: 'wrong_code' });
  });

  it('verify → after 5 wrong codes the account waits (1 s, then doubling), even with the right code; a success forgets', async () => {
    const { secret } = await enrol();
    for (let i = 0; i < THROTTLE_POLICIES.twoFactor.free + 1; i++) {
      assert.deepEqual(await twoFactor.verify(id, '123456'), { kind: 'wrong_code' });
    }
    const next = codeAt(secret, clock.now() + 30_000);
    assert.deepEqual(await twoFactor.verify(id, next), { kind: 'throttled', retryAfterSeconds: 1 });
    clock.advance(1_000);
    assert.deepEqual(await twoFactor.verify(id, next), { kind: 'ok', recovery: false });
    assert.deepEqual(await twoFactor.verify(id, '123456'), { kind: 'wrong_code' }, 'free again');
  });

  it('disable → needs a right code; then it is off and its recovery codes are gone', async () => {
    const { secret, codes } = await enrol();
    clock.advance(30_000);
    assert.deepEqual(await twoFactor.disable(me(), '999999'), { kind: 'wrong_code' });
    assert.equal(await twoFactor.enabled(id), true);
    assert.deepEqual(await twoFactor.disable(me(), codeAt(secret, clock.now())), {
      kind: 'ok',
      recovery: false,
    });
    assert.equal(await twoFactor.enabled(id), false);
    assert.equal(await twoFactor.recoveryCodesLeft(id), 0);
    assert.deepEqual(await twoFactor.verify(id, codes[1]!), { kind: 'wrong_code' });
  });

  it('regenerate → needs a right code; new codes, the old ones (used or not) stop working at once; recorded with them', async () => {
    const { secret, codes } = await enrol();
    assert.deepEqual(await twoFactor.verify(id, codes[0]!), { kind: 'ok', recovery: true });
    clock.advance(30_000);
    assert.deepEqual(await twoFactor.regenerateRecoveryCodes(me(), '999999'), { kind: 'wrong_code' });
    assert.equal(
      await twoFactor.recoveryCodesLeft(id),
      RECOVERY_CODE_COUNT - 1,
      'a wrong code changes nothing',
    );
    const fresh = await twoFactor.regenerateRecoveryCodes(me(), codeAt(secret, clock.now()));
    assert.equal(fresh.kind, 'regenerated');
    const renewed = fresh.kind === 'regenerated' ? fresh.recoveryCodes : [];
    assert.equal(renewed.length, RECOVERY_CODE_COUNT);
    assert.ok(renewed.every((code) => !codes.includes(code)));
    assert.equal(await twoFactor.recoveryCodesLeft(id), RECOVERY_CODE_COUNT);
    assert.deepEqual(await twoFactor.verify(id, codes[1]!), { kind: 'wrong_code' }, 'an old code');
    assert.deepEqual(await twoFactor.verify(id, renewed[0]!), { kind: 'ok', recovery: true });
    assert.deepEqual(
      await twoFactor.regenerateRecoveryCodes(me(), codeAt(secret, clock.now())),
      { kind: 'reused_code' },
      'the code used to regenerate is used up',
    );
    const actions = await storage.transaction((sql) =>
      sql.all('SELECT action FROM audit_log WHERE actor_account_id = $1 ORDER BY id', [id]),
    );
    assert.deepEqual(
      actions.map((row) => row.action),
      ['two_factor_enabled', 'recovery_codes_regenerated'],
      'one record, the refused attempts none',
    );
  });

  it('secret box → a sealed secret opens only for its account and under its key', async () => {
    const box = createSecretBox(async () => key);
    const sealed = await box.seal('acc_a', 'JBSWY3DPEHPK3PXP');
    assert.equal(await box.open('acc_a', sealed), 'JBSWY3DPEHPK3PXP');
    assert.equal(await box.open('acc_b', sealed), undefined);
    assert.equal(await createSecretBox(async () => randomBytes(32)).open('acc_a', sealed), undefined);
    assert.equal(await box.open('acc_a', `${sealed.slice(0, -2)}AA`), undefined);
    assert.equal(await box.open('acc_a', 'plain'), undefined);
  });

  it('challenge → found by its token until it expires (5 minutes), completed once', async () => {
    const token = await twoFactor.challenge(id, '/dashboard/projects/acme');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await twoFactor.challenged(token))?.next, '/dashboard/projects/acme');
    assert.equal(await twoFactor.challenged('made-up'), undefined);
    assert.equal(await twoFactor.completeChallenge(token), true);
    assert.equal(await twoFactor.completeChallenge(token), false);
    const late = await twoFactor.challenge(id, '/dashboard');
    clock.advance(5 * 60_000);
    assert.equal(await twoFactor.challenged(late), undefined);
  });
});
