import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { invite } from '../src/features/members/invitation-mail.ts';
import { TOTP_SETTINGS } from '../src/features/identity/two-factor.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const PASSWORD = 'correct horse battery staple';
const ORIGIN = 'http://localhost';
const STEP = 30_000;
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), timestamp: at });
const alert = (body: string) => /role="alert"[^>]*>([^<]*)</.exec(body)?.[1]?.trim() ?? '';

/**
 * A passkey is a second factor like TOTP (issue 50 item 6): an account whose only second factor is a
 * passkey is asked for it after the password, reaches projects that require two-factor sign-in (pages
 * and tokens), and removing that passkey warns like turning TOTP off. On both databases: the question
 * is one SQL expression (two-factor-records.ts).
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`passkeys count as a second factor (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let cleanup: () => Promise<void> = async () => {};
    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-passkey-2fa-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const json = async (browser: Browser, url: string, page: TestResponse, fields = {}) => {
      const answer = await browser.post(url, { _csrf: csrfOf(page), ...fields });
      assert.equal(answer.status, 200, answer.body);
      return JSON.parse(answer.body);
    };
    const addPasskey = async (browser: Browser, authenticator: SoftAuthenticator) => {
      const account = await browser.get('/dashboard/account');
      const options = await json(browser, '/dashboard/account/passkeys/options', account, {
        password: PASSWORD,
      });
      const credential = JSON.stringify(authenticator.create(options));
      const added = await browser.post('/dashboard/account/passkeys', {
        _csrf: csrfOf(account),
        name: 'Laptop',
        credential,
      });
      assert.equal(added.status, 303);
    };
    /** The password, then the passkey at the second step: the answer of the passkey's post. */
    const signIn = async (email: string, authenticator: SoftAuthenticator) => {
      const browser = new Browser(app);
      const form = await browser.get('/dashboard/sign-in');
      const password = await browser.post('/dashboard/sign-in', {
        _csrf: csrfOf(form),
        email,
        password: PASSWORD,
      });
      assert.equal(password.status, 303);
      assert.equal(
        password.headers.location,
        '/dashboard/sign-in/two-factor',
        'the password alone is not enough',
      );
      assert.ok(!browser.cookies.has('petstore_session'));
      return { browser, passkey: await passkeyStep(browser, authenticator) };
    };
    const passkeyStep = async (browser: Browser, authenticator: SoftAuthenticator) => {
      const step = await browser.get('/dashboard/sign-in/two-factor');
      assert.match(step.body, /Use your passkey/);
      assert.doesNotMatch(
        step.body,
        /autocomplete="one-time-code"/,
        'no TOTP code is asked of an account without TOTP (a recovery code may stand in)',
      );
      const options = await json(browser, '/dashboard/sign-in/two-factor/passkey/options', step);
      return browser.post('/dashboard/sign-in/two-factor/passkey', {
        _csrf: csrfOf(step),
        credential: JSON.stringify(authenticator.get(options)),
      });
    };
    const tokenFor = (accountId: string, email: string, slugs: string[]) =>
      app.app.accessTokens.create(
        { kind: 'account', accountId, email, address: '127.0.0.1' },
        { name: `t${app.clock.now()}`, scope: 'write', projects: slugs, expiresInDays: 30 },
      );
    const manage = (slug: string, token: string) =>
      app.request({ url: `/manage/v1/projects/${slug}`, key: token });

    it(
      'only a passkey: the password asks for it, then the required project opens, tokens are made and work, and its owner may require it',
      { skip },
      async () => {
        const email = `pat-${backend}@example.com`;
        const id = await addAccount(app, email, PASSWORD, [`locked-${backend}`, `own-${backend}`]);
        await app.storage.accounts.setTwoFactorRequired(`prj_locked-${backend}`, true, app.clock.now());
        const before = new Browser(app);
        await before.signIn(email, PASSWORD);
        const sent = await before.get(`/dashboard/projects/locked-${backend}/keys`);
        assert.equal(sent.status, 303, 'without a second factor, sent to set one up');
        const refused = await tokenFor(id, email, [`locked-${backend}`]);
        assert.equal(!refused.ok && refused.problem.code, 'two_factor_required');

        const authenticator = new SoftAuthenticator(ORIGIN);
        await addPasskey(before, authenticator);
        assert.equal((await before.get(`/dashboard/projects/locked-${backend}/keys`)).status, 200);

        const { browser, passkey } = await signIn(email, authenticator);
        assert.equal(passkey.status, 303, passkey.body);
        assert.ok(browser.cookies.has('petstore_session'));
        assert.equal((await browser.get(`/dashboard/projects/locked-${backend}/keys`)).status, 200);

        const made = await tokenFor(id, email, [`locked-${backend}`, `own-${backend}`]);
        assert.ok(made.ok, made.ok ? '' : made.problem.message);
        assert.equal((await manage(`locked-${backend}`, made.value.secret)).status, 200);

        const page = await browser.get(`/dashboard/projects/own-${backend}`);
        const required = await browser.post(`/dashboard/projects/own-${backend}/two-factor`, {
          _csrf: csrfOf(page),
          required: 'yes',
        });
        assert.equal(required.status, 303);
        assert.equal(await app.storage.accounts.twoFactorRequired(`prj_own-${backend}`), true, 'dashboard');
        const patched = await app.request({
          method: 'PATCH',
          url: `/manage/v1/projects/own-${backend}`,
          key: made.value.secret,
          body: { twoFactorRequired: true },
        });
        assert.equal(patched.status, 200, patched.body);
      },
    );

    it(
      'removing the only passkey in a required project warns and needs the box; then pages and tokens are refused',
      { skip },
      async () => {
        const email = `ray-${backend}@example.com`;
        const slug = `gated-${backend}`;
        const id = await addAccount(app, email, PASSWORD, [slug]);
        await app.storage.accounts.setTwoFactorRequired(`prj_${slug}`, true, app.clock.now());
        const ray = new Browser(app);
        await ray.signIn(email, PASSWORD);
        await addPasskey(ray, new SoftAuthenticator(ORIGIN));
        const made = await tokenFor(id, email, [slug]);
        assert.ok(made.ok);

        const account = await ray.get('/dashboard/account');
        const warning = /id="passkey-required-by">([\s\S]*?)<\/p>/
          .exec(account.body)?.[1]
          ?.replace(/\s+/g, ' ');
        assert.match(warning ?? '', new RegExp(`Project ${slug} requires two-factor sign-in`));
        assert.doesNotMatch(
          account.body,
          /id="two-factor-required-by"/,
          'TOTP is off: nothing to warn of there',
        );
        const passkey = /name="passkey" value="([A-Za-z0-9_-]+)"/.exec(account.body)![1]!;
        const unticked = await ray.post('/dashboard/account/passkeys/remove', {
          _csrf: csrfOf(account),
          passkey,
        });
        assert.equal(unticked.status, 303);
        assert.match(
          alert((await ray.get('/dashboard/account')).body),
          new RegExp(`Project ${slug} requires two-factor`),
        );
        assert.equal((await app.storage.accounts.passkeys(id)).length, 1, 'not removed');
        assert.equal((await manage(slug, made.value.secret)).status, 200);

        const ticked = await ray.post('/dashboard/account/passkeys/remove', {
          _csrf: csrfOf(account),
          passkey,
          understood: 'yes',
        });
        assert.equal(ticked.status, 303);
        assert.equal((await app.storage.accounts.passkeys(id)).length, 0);
        assert.equal(
          (await ray.get(`/dashboard/projects/${slug}/keys`)).headers.location,
          `/dashboard/account/two-factor?project=${slug}`,
        );
        const after = await manage(slug, made.value.secret);
        assert.equal(after.status, 403);
        assert.equal(JSON.parse(after.body).code, 'two_factor_required');
        const again = await tokenFor(id, email, [slug]);
        assert.equal(!again.ok && again.problem.code, 'two_factor_required');
      },
    );

    it(
      'TOTP and a passkey: losing either warns of nothing; with TOTP only, sign-in asks for the code and turning it off warns',
      { skip },
      async () => {
        const email = `sal-${backend}@example.com`;
        const slug = `both-${backend}`;
        const id = await addAccount(app, email, PASSWORD, [slug]);
        await app.storage.accounts.setTwoFactorRequired(`prj_${slug}`, true, app.clock.now());
        const sal = new Browser(app);
        await sal.signIn(email, PASSWORD);
        await addPasskey(sal, new SoftAuthenticator(ORIGIN));
        const enrol = await sal.get('/dashboard/account/two-factor');
        const secret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
          .exec(enrol.body)![1]!
          .replace(/ /g, '');
        app.clock.advance(STEP);
        await sal.post('/dashboard/account/two-factor', {
          _csrf: csrfOf(enrol),
          code: codeAt(secret, app.clock.now()),
        });
        const both = await sal.get('/dashboard/account');
        assert.doesNotMatch(both.body, /id="passkey-required-by"|id="two-factor-required-by"/);
        const passkey = /name="passkey" value="([A-Za-z0-9_-]+)"/.exec(both.body)![1]!;
        await sal.post('/dashboard/account/passkeys/remove', { _csrf: csrfOf(both), passkey });
        assert.equal(
          (await app.storage.accounts.passkeys(id)).length,
          0,
          'removed without a box: TOTP remains',
        );

        const other = new Browser(app);
        const form = await other.get('/dashboard/sign-in');
        await other.post('/dashboard/sign-in', { _csrf: csrfOf(form), email, password: PASSWORD });
        const step = await other.get('/dashboard/sign-in/two-factor');
        assert.match(step.body, /name="code"/);
        assert.doesNotMatch(step.body, /data-passkey="get"/, 'no passkey left to offer');
        const totpOnly = await sal.get('/dashboard/account');
        assert.match(totpOnly.body, /id="two-factor-required-by"/, 'TOTP is now the last factor');
        assert.equal((await sal.get(`/dashboard/projects/${slug}/keys`)).status, 200);
      },
    );

    it(
      'an invitation accepted by an account whose second factor is a passkey joins with the password, then the passkey signs in',
      { skip },
      async () => {
        const email = `uma-${backend}@example.com`;
        const slug = `invited-${backend}`;
        await addAccount(app, email, PASSWORD, []);
        await addAccount(app, `owner-${backend}@example.com`, PASSWORD, [slug]);
        await app.storage.accounts.setTwoFactorRequired(`prj_${slug}`, true, app.clock.now());
        const uma = new Browser(app);
        await uma.signIn(email, PASSWORD);
        const authenticator = new SoftAuthenticator(ORIGIN);
        await addPasskey(uma, authenticator);
        const project = (await app.storage.projects.bySlug(slug))!;
        const { token } = await invite(app.storage.projects, {
          project,
          email,
          role: 'developer',
          invitedBy: null,
          now: app.clock.now(),
        });
        const invited = new Browser(app);
        const page = await invited.get(`/dashboard/invitation?token=${token}`);
        const joined = await invited.post('/dashboard/invitation', {
          _csrf: csrfOf(page),
          token,
          password: PASSWORD,
        });
        assert.equal(joined.status, 303, joined.body);
        assert.equal(joined.headers.location, '/dashboard/sign-in/two-factor');
        assert.ok(!invited.cookies.has('petstore_session'), 'no session on the password alone');
        const signedIn = await passkeyStep(invited, authenticator);
        assert.equal(signedIn.status, 303, signedIn.body);
        assert.equal(signedIn.headers.location, `/dashboard/projects/${slug}`);
        assert.equal((await invited.get(`/dashboard/projects/${slug}/keys`)).status, 200);
      },
    );
  });
}
