import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { SoftAuthenticator } from '../../../test/passkey-authenticator.ts';
import type { Store } from '../store.ts';
import { FakeClock } from '../../time/clock.ts';
import { createIdentityChanges } from './identity-changes.ts';
import {
  bindingOf,
  createPasskeys,
  PASSKEY_CHALLENGES_PER_BINDING,
  PASSKEY_RESPONSE_MAX,
  PASSKEYS_PER_ACCOUNT,
  parseCredential,
  type Passkeys,
  relyingPartyOf,
} from './passkeys.ts';
import { openStoreAt } from '../store.ts';

const ORIGIN = 'https://dash.example.com';
const rp = relyingPartyOf(ORIGIN);
const asRegistration = (value: unknown) => value as RegistrationResponseJSON;
const asAssertion = (value: unknown) => value as AuthenticationResponseJSON;

describe('passkeys (WebAuthn)', () => {
  let dir: string;
  let storage: Store;
  let passkeys: Passkeys;
  let n = 0;
  let id: string;
  let authenticator: SoftAuthenticator;
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0, 0));
  const session = bindingOf('session', 'the-session-token');
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-passkeys-'));
    storage = await openStoreAt(join(dir, 'petstore.db'));
    await storage.migrate();
    passkeys = createPasskeys({
      accounts: storage.accounts,
      clock,
      identity: createIdentityChanges({ storage, clock }),
    });
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    id = `acc_${++n}`;
    authenticator = new SoftAuthenticator(ORIGIN);
    clock.advance(10 * 60_000);
    await storage.accounts.create({ id, email: `${id}@example.com`, passwordHash: 'scrypt$x', createdAt: 0 });
  });

  const me = () => ({ kind: 'account' as const, account: { id, email: `${id}@example.com` }, address: null });
  const actions = async () =>
    (
      await storage.transaction((sql) =>
        sql.all('SELECT action, target FROM audit_log WHERE actor_account_id = $1 ORDER BY id', [id]),
      )
    ).map((row) => `${row.action as string} ${row.target as string}`);

  /** Registers a passkey of `authenticator` for the account: its stored record. */
  const register = async (name = 'Laptop') => {
    const options = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    const registered = await passkeys.register(
      me(),
      name,
      asRegistration(authenticator.create(options)),
      session,
      rp,
    );
    assert.equal(registered.kind, 'added', JSON.stringify(registered));
    return registered.kind === 'added' ? registered.passkey : undefined!;
  };

  it('register → options for this origin’s host, a discoverable credential; the answer stores the passkey with its audit record', async () => {
    const options = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    assert.equal(options.rp.id, 'dash.example.com');
    assert.equal(options.authenticatorSelection?.residentKey, 'required');
    assert.equal(options.timeout, 300_000);
    const created = await passkeys.register(
      me(),
      '  Work   laptop ',
      asRegistration(authenticator.create(options)),
      session,
      rp,
    );
    assert.equal(created.kind, 'added');
    const [stored] = await passkeys.list(id);
    assert.equal(stored?.name, 'Work laptop');
    assert.deepEqual(stored?.transports, ['internal']);
    assert.equal(stored?.lastUsedAt, null);
    assert.deepEqual(await actions(), ['passkey_added “Work laptop”']);
    const again = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    assert.deepEqual(
      again.excludeCredentials?.map((credential) => credential.id),
      [stored!.id],
      'the browser is told not to register it twice',
    );
  });

  it('register → refused: a used, expired, other session’s or other origin’s challenge; a bad name; nothing stored', async () => {
    const options = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    const answer = asRegistration(authenticator.create(options));
    assert.equal((await passkeys.register(me(), '', answer, session, rp)).kind, 'refused', 'no name');
    assert.equal((await passkeys.register(me(), 'x'.repeat(61), answer, session, rp)).kind, 'refused');
    assert.equal(
      (await passkeys.register(me(), 'Key', answer, bindingOf('session', 'other'), rp)).kind,
      'refused',
    );
    // The refusals above took nothing but the name's: the challenge is taken by this one, then used.
    assert.equal((await passkeys.register(me(), 'Key', answer, session, rp)).kind, 'added');
    assert.equal((await passkeys.register(me(), 'Key', answer, session, rp)).kind, 'refused', 'used once');

    const phished = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    const elsewhere = asRegistration(authenticator.create(phished, 'https://evil.example'));
    assert.equal((await passkeys.register(me(), 'Evil', elsewhere, session, rp)).kind, 'refused');

    const late = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    clock.advance(5 * 60_000);
    assert.equal(
      (await passkeys.register(me(), 'Late', asRegistration(authenticator.create(late)), session, rp)).kind,
      'refused',
      'expired after 5 minutes',
    );
    assert.deepEqual(
      (await passkeys.list(id)).map((passkey) => passkey.name),
      ['Key'],
    );
  });

  it('challenges → a session holds the newest few: older ones stop working', async () => {
    const first = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    for (let i = 0; i < PASSKEY_CHALLENGES_PER_BINDING; i++) {
      clock.advance(1);
      await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    }
    const answer = asRegistration(authenticator.create(first));
    assert.equal((await passkeys.register(me(), 'Old', answer, session, rp)).kind, 'refused');
  });

  it('sign-in → a passkey alone signs in its account, once per challenge, only with user verification; last used is recorded', async () => {
    const passkey = await register();
    const binding = bindingOf('sign-in', 'form-cookie');
    const options = await passkeys.signInOptions('sign_in', binding, rp, null);
    assert.deepEqual(options.allowCredentials, [], 'discoverable: the authenticator offers its own');
    assert.equal(options.userVerification, 'required');
    const answer = asAssertion(authenticator.get(options));
    const signedIn = await passkeys.authenticate('sign_in', answer, binding, rp);
    assert.equal(signedIn.kind === 'ok' && signedIn.accountId, id);
    assert.equal((await passkeys.list(id))[0]?.lastUsedAt, clock.now());
    assert.deepEqual(
      await passkeys.authenticate('sign_in', answer, binding, rp),
      { kind: 'refused' },
      'replayed',
    );

    authenticator.userVerified = false;
    const unverified = await passkeys.signInOptions('sign_in', binding, rp, null);
    assert.deepEqual(
      await passkeys.authenticate('sign_in', asAssertion(authenticator.get(unverified)), binding, rp),
      { kind: 'refused' },
    );
    const other = await passkeys.signInOptions('sign_in', binding, rp, null);
    authenticator.userVerified = true;
    assert.deepEqual(
      await passkeys.authenticate(
        'sign_in',
        asAssertion(authenticator.get(other, passkey.id, 'https://evil.example')),
        binding,
        rp,
      ),
      { kind: 'refused' },
      'another origin',
    );
  });

  it('second factor → the options list the account’s passkeys; another account’s passkey is refused; a counter that goes back is refused', async () => {
    await register();
    const binding = bindingOf('two-factor', 'code-step');
    const options = await passkeys.signInOptions('second_factor', binding, rp, id);
    assert.equal(options.allowCredentials?.length, 1);

    const mine = id;
    const theirs = new SoftAuthenticator(ORIGIN);
    id = `acc_${++n}`;
    await storage.accounts.create({ id, email: `${id}@example.com`, passwordHash: 'scrypt$x', createdAt: 0 });
    const options2 = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    await passkeys.register(me(), 'Theirs', asRegistration(theirs.create(options2)), session, rp);
    assert.deepEqual(
      await passkeys.authenticate(
        'second_factor',
        asAssertion(theirs.get({ ...options, allowCredentials: [] })),
        binding,
        rp,
      ),
      { kind: 'refused' },
      'the challenge was for the other account',
    );
    const ok = await passkeys.signInOptions('second_factor', binding, rp, mine);
    authenticator.counting = true;
    const answered = await passkeys.authenticate(
      'second_factor',
      asAssertion(authenticator.get(ok)),
      binding,
      rp,
    );
    assert.equal(answered.kind === 'ok' && answered.accountId, mine);
    const cloned = await passkeys.signInOptions('second_factor', binding, rp, mine);
    const [credential] = authenticator.credentials.values();
    credential!.count = 0;
    assert.deepEqual(
      await passkeys.authenticate('second_factor', asAssertion(authenticator.get(cloned)), binding, rp),
      { kind: 'refused' },
      'a counter that went back: a cloned authenticator',
    );
  });

  it('limits → at most 20 passkeys an account, the 21st refused with nothing stored; a credential’s JSON of more than 16 KiB is not read', async () => {
    for (let i = 0; i < PASSKEYS_PER_ACCOUNT; i++) await register(`Key ${i}`);
    const options = await passkeys.registrationOptions({ id, email: `${id}@example.com` }, session, rp);
    const refused = await passkeys.register(
      me(),
      'One more',
      asRegistration(authenticator.create(options)),
      session,
      rp,
    );
    assert.deepEqual(refused, { kind: 'refused', problem: 'An account holds 20 passkeys at most.' });
    assert.equal((await passkeys.list(id)).length, PASSKEYS_PER_ACCOUNT);
    const answer = JSON.stringify(authenticator.create(options));
    assert.ok(parseCredential(answer));
    assert.equal(parseCredential(answer.padEnd(PASSKEY_RESPONSE_MAX + 1, ' ')), undefined);
    assert.equal(parseCredential('[1]'), undefined);
    assert.equal(parseCredential('{"id":'), undefined);
  });

  it('remove → only the account’s own, recorded; the passkey then signs in no more', async () => {
    const passkey = await register('Phone');
    assert.equal(
      await passkeys.remove({ ...me(), account: { id: 'acc_x', email: 'x@example.com' } }, passkey.id),
      false,
    );
    assert.equal(await passkeys.remove(me(), passkey.id), true);
    assert.equal(await passkeys.remove(me(), passkey.id), false);
    assert.deepEqual(await actions(), ['passkey_added “Phone”', 'passkey_removed “Phone”']);
    const binding = bindingOf('sign-in', 'form-cookie');
    const options = await passkeys.signInOptions('sign_in', binding, rp, null);
    assert.deepEqual(
      await passkeys.authenticate(
        'sign_in',
        asAssertion(authenticator.get(options, passkey.id)),
        binding,
        rp,
      ),
      { kind: 'refused' },
    );
  });
});
