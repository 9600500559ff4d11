import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { TOTP_SETTINGS } from '../src/features/identity/two-factor.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const PASSWORD = 'correct horse battery staple';
const ORIGIN = 'http://localhost';
const STEP = 30_000;
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), timestamp: at });
const codesOf = (body: string) =>
  [...body.matchAll(/<li><code>([a-z2-7-]{19})<\/code><\/li>/g)].map((match) => match[1]!);
const alert = (body: string) => /role="alert"[^>]*>([^<]*)</.exec(body)?.[1]?.trim() ?? '';

/**
 * Recovery codes belong to the account's second factor as a whole, as on GitHub: an account whose
 * first second factor is a passkey gets them (shown once), may sign in with one instead of the
 * passkey, may renew them with its password, and loses them with its last second factor.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`recovery codes of a passkey-only account (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let cleanup: () => Promise<void> = async () => {};
    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-passkey-recovery-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    /** Adds a passkey from the account page; the account page shown next. */
    const addPasskey = async (browser: Browser, name: string) => {
      const account = await browser.get('/dashboard/account');
      const options = await browser.post('/dashboard/account/passkeys/options', {
        _csrf: csrfOf(account),
        password: PASSWORD,
      });
      assert.equal(options.status, 200, options.body);
      const credential = JSON.stringify(new SoftAuthenticator(ORIGIN).create(JSON.parse(options.body)));
      const added = await browser.post('/dashboard/account/passkeys', {
        _csrf: csrfOf(account),
        name,
        credential,
      });
      assert.equal(added.status, 303);
      return browser.get('/dashboard/account');
    };
    /** The password, then a recovery code at the second step: the code step's answer. */
    const signInWithCode = async (email: string, code: string) => {
      const browser = new Browser(app);
      const form = await browser.get('/dashboard/sign-in');
      await browser.post('/dashboard/sign-in', { _csrf: csrfOf(form), email, password: PASSWORD });
      const step = await browser.get('/dashboard/sign-in/two-factor');
      assert.match(step.body, /Use your passkey/);
      assert.match(step.body, /Use a recovery code/);
      const answer = await browser.post('/dashboard/sign-in/two-factor', { _csrf: csrfOf(step), code });
      return { browser, answer };
    };
    const trail = async (email: string) =>
      (await app.storage.audit.list({ projectId: `prj_${backend}-audit`, limit: 100, accountEvents: true }))
        .filter((event) => event.actor === email)
        .map((event) => event.action)
        .reverse();

    it(
      'the first passkey shows recovery codes once, a second passkey none; a code signs in once, instead of the passkey',
      { skip },
      async () => {
        const email = `kim-${backend}@example.com`;
        const id = await addAccount(app, email, PASSWORD, [`${backend}-audit`]);
        const kim = new Browser(app);
        await kim.signIn(email, PASSWORD);
        const shown = await addPasskey(kim, 'Laptop');
        assert.match(shown.body, /Passkey “Laptop” added/);
        const codes = codesOf(shown.body);
        assert.equal(codes.length, 10);
        assert.doesNotMatch(shown.body, /New recovery codes/, 'a first set, not a renewal');
        const again = await kim.get('/dashboard/account');
        assert.doesNotMatch(again.body, /<li><code>/, 'shown once');
        assert.match(again.body, /On with your passkey[\s\S]*?<strong>10<\/strong> recovery codes left/);
        assert.equal(codesOf((await addPasskey(kim, 'Phone')).body).length, 0, 'not the first second factor');
        assert.equal(await app.storage.accounts.recoveryCodesLeft(id), 10, 'the first codes still stand');

        const { browser, answer } = await signInWithCode(email, codes[3]!.toUpperCase());
        assert.equal(answer.status, 303, answer.body);
        assert.ok(browser.cookies.has('petstore_session'));
        assert.equal(await app.storage.accounts.recoveryCodesLeft(id), 9, 'used up');
        const reused = await signInWithCode(email, codes[3]!);
        assert.equal(reused.answer.status, 400);
        assert.match(alert(reused.answer.body), /That recovery code is not right, or was used already/);
        assert.ok(!reused.browser.cookies.has('petstore_session'));
        const totpLike = await signInWithCode(email, '123456');
        assert.equal(totpLike.answer.status, 400, 'no TOTP: a 6-digit code is nothing');
        assert.deepEqual(await trail(email), ['sign_in', 'passkey_added', 'passkey_added', 'sign_in']);
      },
    );

    it(
      'new codes for a passkey-only account need the password, replace the old ones and are shown once',
      { skip },
      async () => {
        const email = `lou-${backend}@example.com`;
        const id = await addAccount(app, email, PASSWORD, [`${backend}-audit`]);
        const lou = new Browser(app);
        await lou.signIn(email, PASSWORD);
        const old = codesOf((await addPasskey(lou, 'Laptop')).body);
        const account = await lou.get('/dashboard/account');
        assert.match(account.body, /action="\/dashboard\/account\/two-factor\/recovery-codes"/);
        const wrong = await lou.post('/dashboard/account/two-factor/recovery-codes', {
          _csrf: csrfOf(account),
          password: 'not the password',
        });
        assert.equal(wrong.status, 303);
        assert.match(alert((await lou.get('/dashboard/account')).body), /Your password is not right/);
        await lou.post('/dashboard/account/two-factor/recovery-codes', {
          _csrf: csrfOf(account),
          password: PASSWORD,
        });
        const shown = await lou.get('/dashboard/account');
        assert.match(shown.body, /New recovery codes: your old ones no longer work/);
        const fresh = codesOf(shown.body);
        assert.equal(fresh.length, 10);
        assert.ok(fresh.every((code) => !old.includes(code)));
        assert.doesNotMatch((await lou.get('/dashboard/account')).body, /<li><code>/, 'shown once');
        assert.equal(
          (await signInWithCode(email, old[0]!)).answer.status,
          400,
          'an old code no longer signs in',
        );
        assert.equal((await signInWithCode(email, fresh[0]!)).answer.status, 303, 'a new one does');
        assert.equal(await app.storage.accounts.recoveryCodesLeft(id), 9);
        assert.deepEqual(await trail(email), [
          'sign_in',
          'passkey_added',
          'recovery_codes_regenerated',
          'sign_in',
        ]);
      },
    );

    it(
      'the codes go with the last second factor: kept while TOTP goes and a passkey stays, dropped with the last passkey',
      { skip },
      async () => {
        const email = `max-${backend}@example.com`;
        const id = await addAccount(app, email, PASSWORD, []);
        const max = new Browser(app);
        await max.signIn(email, PASSWORD);
        const enrol = await max.get('/dashboard/account/two-factor');
        const secret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
          .exec(enrol.body)![1]!
          .replace(/ /g, '');
        app.clock.advance(STEP);
        await max.post('/dashboard/account/two-factor', {
          _csrf: csrfOf(enrol),
          code: codeAt(secret, app.clock.now()),
        });
        const totpCodes = codesOf((await max.get('/dashboard/account')).body);
        assert.equal(totpCodes.length, 10);
        assert.equal(
          codesOf((await addPasskey(max, 'Laptop')).body).length,
          0,
          'TOTP came first: its codes stand',
        );

        const both = await max.get('/dashboard/account');
        app.clock.advance(STEP);
        await max.post('/dashboard/account/two-factor/disable', {
          _csrf: csrfOf(both),
          code: codeAt(secret, app.clock.now()),
        });
        assert.equal(await app.storage.accounts.twoFactor(id), undefined, 'TOTP is off');
        assert.equal(
          await app.storage.accounts.recoveryCodesLeft(id),
          10,
          'a passkey remains: so do the codes',
        );
        const passkeyOnly = await max.get('/dashboard/account');
        assert.match(passkeyOnly.body, /On with your passkey/);
        await max.post('/dashboard/account/two-factor/disable', {
          _csrf: csrfOf(passkeyOnly),
          code: totpCodes[0]!,
        });
        assert.equal(
          await app.storage.accounts.recoveryCodesLeft(id),
          10,
          'TOTP is off: nothing to turn off, no code spent',
        );

        const passkey = /name="passkey" value="([A-Za-z0-9_-]+)"/.exec(passkeyOnly.body)![1]!;
        await max.post('/dashboard/account/passkeys/remove', { _csrf: csrfOf(passkeyOnly), passkey });
        assert.equal((await app.storage.accounts.passkeys(id)).length, 0);
        assert.equal(await app.storage.accounts.recoveryCodesLeft(id), 0, 'the last second factor took them');
        const off = await max.get('/dashboard/account');
        assert.match(off.body, /Set up two-factor sign-in/);
        assert.doesNotMatch(off.body, /recovery-codes"/, 'nothing to renew');
        const refused = await max.post('/dashboard/account/two-factor/recovery-codes', {
          _csrf: csrfOf(off),
          password: PASSWORD,
        });
        assert.equal(refused.status, 303);
        assert.match(alert((await max.get('/dashboard/account')).body), /Set up a second factor first/);
        assert.equal(await app.storage.accounts.recoveryCodesLeft(id), 0);
        const signedIn = new Browser(app);
        await signedIn.signIn(email, PASSWORD);
        assert.ok(signedIn.cookies.has('petstore_session'), 'no second factor: the password alone again');
      },
    );
  });
}
