import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { THROTTLE_POLICIES } from '../src/features/identity/sign-in-throttle.ts';
import { addAccount, assertPageHeaders, Browser, csrfOf, setCookies } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { createIdentityChanges } from '../src/features/identity/identity-changes.ts';

const PASSWORD = 'correct horse battery staple';

describe('dashboard sign-in, sessions and CSRF', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme']);
  });
  after(() => app.close());
  // Every test signs in from 127.0.0.1: a fresh minute keeps the per-address sign-in limit out of the way.
  beforeEach(() => app.clock.advance(60_000));

  it('GET /dashboard signed out → 303 to the sign-in page; a deeper page comes back after sign-in', async () => {
    const browser = new Browser(app);
    const home = await browser.get('/dashboard');
    assert.equal(home.status, 303);
    assert.equal(home.headers.location, '/dashboard/sign-in');
    const deep = await browser.get('/dashboard/projects/acme/keys');
    assert.equal(deep.headers.location, '/dashboard/sign-in?next=%2Fdashboard%2Fprojects%2Facme%2Fkeys');
    const form = await browser.get(deep.headers.location!);
    assert.equal(form.status, 200);
    assertPageHeaders(form);
    assert.match(form.body, /name="next" value="\/dashboard\/projects\/acme\/keys"/);
    const signedIn = await browser.post('/dashboard/sign-in', {
      _csrf: csrfOf(form),
      email: 'ann@example.com',
      password: PASSWORD,
      next: '/dashboard/projects/acme/keys',
    });
    assert.equal(signedIn.headers.location, '/dashboard/projects/acme/keys');
  });

  it('POST /dashboard/sign-in → session cookie HttpOnly, SameSite=Lax, Path=/dashboard, not Secure over plain HTTP', async () => {
    const browser = new Browser(app);
    const form = await browser.get('/dashboard/sign-in');
    const response = await browser.post('/dashboard/sign-in', {
      _csrf: csrfOf(form),
      email: 'ANN@example.com ',
      password: PASSWORD,
    });
    assert.equal(response.status, 303);
    const cookie = setCookies(response).find((line) => line.startsWith('petstore_session='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\/dashboard/);
    assert.doesNotMatch(cookie, /Secure/);
    const home = await browser.get('/dashboard');
    assert.equal(home.status, 200);
    assert.match(home.body, /Signed in as <strong>ann@example.com<\/strong>/);
  });

  it('POST /dashboard/sign-in behind a TLS proxy → the cookie is Secure and pages send HSTS', async () => {
    const tls = await makeTestApp({ trustProxy: true });
    try {
      await addAccount(tls, 'tls@example.com', PASSWORD, []);
      const browser = new Browser(tls);
      const proto = { 'x-forwarded-proto': 'https' };
      const form = await browser.get('/dashboard/sign-in', proto);
      assert.match(form.headers['strict-transport-security'] ?? '', /max-age=/);
      const response = await browser.post(
        '/dashboard/sign-in',
        { _csrf: csrfOf(form), email: 'tls@example.com', password: PASSWORD },
        proto,
      );
      assert.match(
        setCookies(response).find((line) => line.startsWith('petstore_session='))!,
        /; Secure/,
      );
    } finally {
      await tls.close();
    }
  });

  it('POST /dashboard/sign-in → the same 400 answer for a wrong password and an unknown email, no session', async () => {
    const browser = new Browser(app);
    const form = await browser.get('/dashboard/sign-in');
    const wrong = await browser.post('/dashboard/sign-in', {
      _csrf: csrfOf(form),
      email: 'ann@example.com',
      password: 'not the password',
    });
    const unknown = await browser.post('/dashboard/sign-in', {
      _csrf: csrfOf(form),
      email: 'nobody@example.com',
      password: PASSWORD,
    });
    for (const response of [wrong, unknown]) {
      assert.equal(response.status, 400);
      assertPageHeaders(response);
      assert.match(response.body, /That email and password do not match an account/);
      assert.equal(
        setCookies(response).some((line) => line.startsWith('petstore_session=')),
        false,
      );
    }
  });

  it('POST /dashboard/sign-in without the form token, with another token, or from another origin → 403, no session', async () => {
    const browser = new Browser(app);
    const form = await browser.get('/dashboard/sign-in');
    const credentials = { email: 'ann@example.com', password: PASSWORD };
    const attempts = [
      await browser.post('/dashboard/sign-in', credentials),
      await browser.post('/dashboard/sign-in', { ...credentials, _csrf: 'A'.repeat(43) }),
      await browser.post(
        '/dashboard/sign-in',
        { ...credentials, _csrf: csrfOf(form) },
        { origin: 'https://evil.example' },
      ),
      await browser.post(
        '/dashboard/sign-in',
        { ...credentials, _csrf: csrfOf(form) },
        { 'sec-fetch-site': 'cross-site' },
      ),
    ];
    for (const response of attempts) {
      assert.equal(response.status, 403);
      assertPageHeaders(response);
      assert.equal(
        setCookies(response).some((line) => line.startsWith('petstore_session=')),
        false,
      );
    }
  });

  it(`POST /dashboard/sign-in → 429 with Retry-After from an unknown device after ${THROTTLE_POLICIES.email.free + 1} failures, even with the right password`, async () => {
    await addAccount(app, 'target@example.com', PASSWORD, []);
    const browser = new Browser(app);
    const form = await browser.get('/dashboard/sign-in');
    for (let i = 0; i <= THROTTLE_POLICIES.email.free; i++) {
      const response = await browser.post(
        '/dashboard/sign-in',
        { _csrf: csrfOf(form), email: 'target@example.com', password: `guess number ${i}` },
        { 'x-forwarded-for': `10.9.0.${i}` },
      );
      assert.equal(response.status, 400);
    }
    const throttled = await browser.post('/dashboard/sign-in', {
      _csrf: csrfOf(form),
      email: 'target@example.com',
      password: PASSWORD,
    });
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    assert.match(throttled.body, /Too many sign-in attempts/);
  });

  it('POST /dashboard/sign-out → the session ends at once; the old cookie no longer signs in', async () => {
    const browser = new Browser(app);
    await browser.signIn('ann@example.com', PASSWORD);
    const stolen = browser.cookieHeader;
    const home = await browser.get('/dashboard');
    const out = await browser.post('/dashboard/sign-out', { _csrf: csrfOf(home) });
    assert.equal(out.status, 303);
    assert.equal(out.headers.location, '/dashboard/sign-in?signedOut');
    assert.match(
      setCookies(out).find((line) => line.startsWith('petstore_session='))!,
      /Max-Age=0/,
    );
    const replay = await app.request({
      url: '/dashboard',
      key: null,
      unchecked: true,
      headers: { cookie: stolen },
    });
    assert.equal(replay.status, 303);
  });

  it('POST /dashboard/sign-out without the session token → 403, still signed in', async () => {
    const browser = new Browser(app);
    await browser.signIn('ann@example.com', PASSWORD);
    const response = await browser.post('/dashboard/sign-out', { _csrf: 'forged' });
    assert.equal(response.status, 403);
    assert.equal((await browser.get('/dashboard')).status, 200);
  });

  it('removing the account (admin remove) ends its sessions at once; the last owner of a project is not removed', async () => {
    const id = await addAccount(app, 'leaving@example.com', PASSWORD, ['leaving']);
    const browser = new Browser(app);
    await browser.signIn('leaving@example.com', PASSWORD);
    assert.equal((await browser.get('/dashboard')).status, 200);
    const identity = createIdentityChanges({ storage: app.storage, clock: app.clock });
    const refused = await identity.removeAccount({ kind: 'operator' }, id);
    assert.deepEqual(refused.value, { removed: false, orphaned: ['leaving'] });
    assert.equal((await browser.get('/dashboard')).status, 200, 'nothing was removed');
    await addAccount(app, 'stays@example.com', PASSWORD, ['leaving']);
    assert.equal((await identity.removeAccount({ kind: 'operator' }, id)).value.removed, true);
    assert.equal((await browser.get('/dashboard')).status, 303);
  });

  it('GET /dashboard/sign-in?next=… → only dashboard paths are kept (no open redirect)', async () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example',
      '/dashboard/../v1/pets',
      '/dashboard\\evil',
    ]) {
      const browser = new Browser(app);
      const form = await browser.get(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
      const response = await browser.post('/dashboard/sign-in', {
        _csrf: csrfOf(form),
        email: 'ann@example.com',
        password: PASSWORD,
        next,
      });
      assert.equal(response.headers.location, '/dashboard', next);
    }
  });
});
