import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { TOTP_SETTINGS } from '../src/features/identity/two-factor.ts';
import { THROTTLE_POLICIES } from '../src/features/identity/sign-in-throttle.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';

const PASSWORD = 'correct horse battery staple';
const ORIGIN = 'http://localhost';
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), timestamp: at });
const alert = (body: string) => /role="alert"[^>]*>([^<]*)</.exec(body)?.[1]?.trim() ?? '';

describe('dashboard passkeys: add, list, remove; sign in with one alone or instead of the code', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  /** The options a form's script would fetch: a JSON answer to a post with the form's CSRF token. */
  const optionsFrom = async (
    browser: Browser,
    url: string,
    page: { body: string },
    fields: Record<string, string> = {},
  ) => {
    const answer = await browser.post(url, { _csrf: csrfOf(page as never), ...fields });
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
    return JSON.parse(answer.body);
  };

  /** Adds a passkey from the account page as the page's script would. */
  const addPasskey = async (browser: Browser, authenticator: SoftAuthenticator, name: string) => {
    const account = await browser.get('/dashboard/account');
    assert.match(account.body, /data-passkey="create"/);
    const options = await optionsFrom(browser, '/dashboard/account/passkeys/options', account, {
      password: PASSWORD,
    });
    const added = await browser.post('/dashboard/account/passkeys', {
      _csrf: csrfOf(account),
      name,
      credential: JSON.stringify(authenticator.create(options)),
    });
    assert.equal(added.status, 303);
    assert.equal(added.headers.location, '/dashboard/account');
    return browser.get('/dashboard/account');
  };

  /** "Sign in with a passkey" from the sign-in page. */
  const passkeySignIn = async (browser: Browser, authenticator: SoftAuthenticator, next?: string) => {
    const page = await browser.get('/dashboard/sign-in');
    assert.match(page.body, /Sign in with a passkey/);
    const options = await optionsFrom(browser, '/dashboard/sign-in/passkey/options', page);
    const form: Record<string, string> = {
      _csrf: csrfOf(page),
      credential: JSON.stringify(authenticator.get(options)),
    };
    if (next) form.next = next;
    return browser.post('/dashboard/sign-in/passkey', form);
  };

  it('a passkey added on the account page is listed with its dates, signs in alone (no password), and once removed (audited) signs in no more', async () => {
    app.clock.advance(60_000);
    await addAccount(app, 'pia@example.com', PASSWORD, ['acme']);
    const pia = new Browser(app);
    await pia.signIn('pia@example.com', PASSWORD);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const listed = await addPasskey(pia, authenticator, 'Work laptop');
    assert.match(listed.body, /Passkey “Work laptop” added/);
    assert.match(
      listed.body,
      /<td>Work laptop<\/td>\s*<td>\d{4}-\d\d-\d\d [\d:.]+ UTC<\/td>\s*<td>never<\/td>/,
    );

    const elsewhere = new Browser(app);
    const signedIn = await passkeySignIn(elsewhere, authenticator, '/dashboard/projects/acme');
    assert.equal(signedIn.status, 303, signedIn.body);
    assert.equal(signedIn.headers.location, '/dashboard/projects/acme');
    assert.ok(elsewhere.cookies.has('petstore_session') && elsewhere.cookies.has('petstore_device'));
    const page = await elsewhere.get('/dashboard/account');
    assert.doesNotMatch(page.body, /<td>never<\/td>/, 'last used is shown');

    const passkeyId = /name="passkey" value="([A-Za-z0-9_-]+)"/.exec(page.body)![1]!;
    const removed = await elsewhere.post('/dashboard/account/passkeys/remove', {
      _csrf: csrfOf(page),
      passkey: passkeyId,
    });
    assert.equal(removed.status, 303);
    assert.match((await elsewhere.get('/dashboard/account')).body, /No passkeys yet/);
    const trail = (await app.storage.audit.list({ projectId: 'prj_acme', limit: 100, accountEvents: true }))
      .filter((event) => event.actor === 'pia@example.com')
      .map((event) => `${event.action} ${event.target ?? ''}`.trim())
      .reverse();
    assert.deepEqual(trail, [
      'sign_in',
      'passkey_added “Work laptop”',
      'sign_in',
      'passkey_removed “Work laptop”',
    ]);

    const wrong = await elsewhere.post('/dashboard/account/passkeys/options', {
      _csrf: csrfOf(page),
      password: 'not the password',
    });
    assert.equal(wrong.status, 400, 'adding a passkey asks for the password again');
    assert.equal(JSON.parse(wrong.body).problem, 'Your password is not right.');

    const refused = await passkeySignIn(new Browser(app), authenticator);
    assert.equal(refused.status, 400);
    assert.match(alert(refused.body), /That passkey did not sign you in/);
  });

  it('a passkey stands in for the code after the password; passkey-first sign-in needs user verification; failures count like codes and passwords', async () => {
    app.clock.advance(60_000);
    await addAccount(app, 'quinn@example.com', PASSWORD, []);
    const quinn = new Browser(app);
    await quinn.signIn('quinn@example.com', PASSWORD);
    const enrol = await quinn.get('/dashboard/account/two-factor');
    const secret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
      .exec(enrol.body)![1]!
      .replace(/ /g, '');
    await quinn.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(enrol),
      code: codeAt(secret, app.clock.now()),
    });
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(quinn, authenticator, 'Phone');

    const other = new Browser(app);
    const login = await other.get('/dashboard/sign-in');
    await other.post('/dashboard/sign-in', {
      _csrf: csrfOf(login),
      email: 'quinn@example.com',
      password: PASSWORD,
    });
    const step = await other.get('/dashboard/sign-in/two-factor');
    assert.match(step.body, /Use a passkey instead/);
    const options = await optionsFrom(other, '/dashboard/sign-in/two-factor/passkey/options', step);
    assert.equal(options.allowCredentials.length, 1, 'the account’s own passkeys');
    const signedIn = await other.post('/dashboard/sign-in/two-factor/passkey', {
      _csrf: csrfOf(step),
      credential: JSON.stringify(authenticator.get(options)),
    });
    assert.equal(signedIn.status, 303, signedIn.body);
    assert.equal(signedIn.headers.location, '/dashboard');
    assert.ok(other.cookies.has('petstore_session') && !other.cookies.has('petstore_two_factor'));

    // Without a password first, the code step's passkey is refused: there is no sign-in waiting.
    const stranger = new Browser(app);
    const nothing = await stranger.get('/dashboard/sign-in');
    const noStep = await stranger.post('/dashboard/sign-in/two-factor/passkey/options', {
      _csrf: csrfOf(nothing),
    });
    assert.equal(noStep.status, 400);
    assert.match(JSON.parse(noStep.body).problem, /Sign in with your email and password first/);

    authenticator.userVerified = false;
    const unverified = await passkeySignIn(new Browser(app), authenticator);
    assert.equal(unverified.status, 400, 'alone, a passkey must verify its user');
    authenticator.userVerified = true;

    // A wrong answer at the code step counts against the account like a wrong code.
    const third = new Browser(app);
    const again = await third.get('/dashboard/sign-in');
    await third.post('/dashboard/sign-in', {
      _csrf: csrfOf(again),
      email: 'quinn@example.com',
      password: PASSWORD,
    });
    const codePage = await third.get('/dashboard/sign-in/two-factor');
    for (let i = 0; i <= THROTTLE_POLICIES.twoFactor.free; i++) {
      const asked = await optionsFrom(third, '/dashboard/sign-in/two-factor/passkey/options', codePage);
      const forged = authenticator.get(asked);
      forged.response.signature = Buffer.from('not a signature').toString('base64url');
      const wrong = await third.post('/dashboard/sign-in/two-factor/passkey', {
        _csrf: csrfOf(codePage),
        credential: JSON.stringify(forged),
      });
      assert.equal(wrong.status, 400);
    }
    const asked = await optionsFrom(third, '/dashboard/sign-in/two-factor/passkey/options', codePage);
    const throttled = await third.post('/dashboard/sign-in/two-factor/passkey', {
      _csrf: csrfOf(codePage),
      credential: JSON.stringify(authenticator.get(asked)),
    });
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers['retry-after']) >= 1);
  });

  it('the options and the forms need the page’s CSRF token; a challenge is for the browser that asked for it', async () => {
    app.clock.advance(60_000);
    await addAccount(app, 'rae@example.com', PASSWORD, []);
    const rae = new Browser(app);
    await rae.signIn('rae@example.com', PASSWORD);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(rae, authenticator, 'Key');
    const outsider = new Browser(app);
    assert.equal((await outsider.post('/dashboard/sign-in/passkey/options', { _csrf: 'x' })).status, 403);
    assert.equal((await rae.post('/dashboard/account/passkeys/options', { _csrf: 'x' })).status, 403);

    // Options fetched by one browser, answered from another: its sign-in cookie is not the one bound.
    const asker = new Browser(app);
    const page = await asker.get('/dashboard/sign-in');
    const options = await optionsFrom(asker, '/dashboard/sign-in/passkey/options', page);
    const thief = new Browser(app);
    const theirs = await thief.get('/dashboard/sign-in');
    const stolen = await thief.post('/dashboard/sign-in/passkey', {
      _csrf: csrfOf(theirs),
      credential: JSON.stringify(authenticator.get(options)),
    });
    assert.equal(stolen.status, 400);
    assert.ok(!thief.cookies.has('petstore_session'));
    const garbage = await thief.post('/dashboard/sign-in/passkey', {
      _csrf: csrfOf(theirs),
      credential: '{"id":',
    });
    assert.equal(garbage.status, 400);
  });
});
