import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { invite } from '../src/features/members/invitation-mail.ts';
import { TOTP_SETTINGS } from '../src/features/identity/two-factor.ts';
import { addAccount, assertPageHeaders, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const STEP = 30_000;

/** The code an authenticator app shows for `secret` at `at`, by the same library the server uses. */
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), timestamp: at });

const alert = (body: string) => /role="alert"[^>]*>([^<]*)</.exec(body)?.[1]?.trim() ?? '';

describe('dashboard two-factor sign-in: set up, sign in with a code or a recovery code, required by a project', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  /** Signs in with the password; for a two-factor account, the browser is then at the code step. */
  const passwordStep = async (browser: Browser, email: string, next?: string) => {
    const page = await browser.get('/dashboard/sign-in');
    const form: Record<string, string> = { _csrf: csrfOf(page), email, password: PASSWORD };
    if (next) form.next = next;
    return browser.post('/dashboard/sign-in', form);
  };
  const codeStep = async (browser: Browser, code: string) => {
    const page = await browser.get('/dashboard/sign-in/two-factor');
    return browser.post('/dashboard/sign-in/two-factor', { _csrf: csrfOf(page), code });
  };

  /** Sets two-factor up through the account pages: the secret shown as text, and the recovery codes. */
  const setUp = async (browser: Browser) => {
    const account = await browser.get('/dashboard/account');
    assert.match(account.body, /href="\/dashboard\/account\/two-factor"/);
    const page = await browser.get('/dashboard/account/two-factor');
    assert.equal(page.status, 200);
    assertPageHeaders(page);
    assert.match(
      page.body,
      /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/,
      'the QR code, as SVG',
    );
    assert.doesNotMatch(/<main[\s\S]*<\/main>/.exec(page.body)![0], /<script/, 'no script of its own');
    const secret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
      .exec(page.body)?.[1]
      ?.replace(/ /g, '');
    assert.ok(secret && secret.length === 32, 'the secret as text, for typing');
    const uri = /<a href="([^"]+)" id="two-factor-uri">/.exec(page.body)?.[1]?.replace(/&amp;/g, '&');
    assert.equal(new URL(uri!).searchParams.get('secret'), secret, 'a link for an app on the same phone');
    const wrong = await browser.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(page),
      code: '000000',
    });
    assert.equal(wrong.status, 400);
    assert.match(alert(wrong.body), /That code is not right/);
    const confirmed = await browser.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(page),
      code: codeAt(secret, app.clock.now()),
    });
    assert.equal(confirmed.status, 303);
    assert.equal(confirmed.headers.location, '/dashboard/account');
    const shown = await browser.get('/dashboard/account');
    const codes = [...shown.body.matchAll(/<li><code>([a-z2-7-]{19})<\/code><\/li>/g)].map((m) => m[1]!);
    assert.equal(codes.length, 10, 'ten recovery codes');
    const again = await browser.get('/dashboard/account');
    assert.doesNotMatch(again.body, /<li><code>/, 'shown once');
    assert.match(again.body, /<strong>10<\/strong> recovery codes left/);
    return { secret, codes };
  };

  it('the account page sets it up; sign-in then asks for the code after the password; a wrong or reused code is refused; the next one signs in', async () => {
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme']);
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
    const { secret } = await setUp(ann);
    const confirmedAt = app.clock.now();

    const other = new Browser(app);
    const password = await passwordStep(other, 'ann@example.com', '/dashboard/projects/acme');
    assert.equal(password.status, 303);
    assert.equal(password.headers.location, '/dashboard/sign-in/two-factor');
    assert.ok(other.cookies.has('petstore_two_factor'));
    assert.ok(!other.cookies.has('petstore_session'), 'no session before the code');
    assert.equal((await other.get('/dashboard')).status, 303, 'still signed out');
    const step = await other.get('/dashboard/sign-in/two-factor');
    assert.equal(step.status, 200);
    assert.match(step.body, /autocomplete="one-time-code"/);

    const wrong = await codeStep(other, '123456');
    assert.equal(wrong.status, 400);
    assert.match(alert(wrong.body), /not right/);
    const reused = await codeStep(other, codeAt(secret, confirmedAt));
    assert.equal(reused.status, 400, 'the code that confirmed the set-up is used');
    assert.match(alert(reused.body), /That code was used already: type the next one/);
    app.clock.advance(STEP);
    const signedIn = await codeStep(other, codeAt(secret, app.clock.now()));
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.headers.location, '/dashboard/projects/acme');
    assert.ok(other.cookies.has('petstore_session') && other.cookies.has('petstore_device'));
    assert.ok(!other.cookies.has('petstore_two_factor'));
    assert.equal((await other.get('/dashboard/projects/acme')).status, 200);

    const third = new Browser(app);
    await passwordStep(third, 'ann@example.com');
    assert.equal(
      (await codeStep(third, codeAt(secret, app.clock.now()))).status,
      400,
      'reused within its window',
    );
  });

  it('a recovery code signs in once; the code step without a password first shows the password form', async () => {
    await addAccount(app, 'bob@example.com', PASSWORD, ['acme']);
    const bob = new Browser(app);
    await bob.signIn('bob@example.com', PASSWORD);
    const { codes } = await setUp(bob);
    const phoneless = new Browser(app);
    await passwordStep(phoneless, 'bob@example.com');
    const recovered = await codeStep(phoneless, codes[3]!.toUpperCase());
    assert.equal(recovered.status, 303);
    assert.equal(recovered.headers.location, '/dashboard');
    assert.match((await phoneless.get('/dashboard/account')).body, /<strong>9<\/strong> recovery codes left/);
    const again = new Browser(app);
    await passwordStep(again, 'bob@example.com');
    assert.equal((await codeStep(again, codes[3]!)).status, 400);

    const stranger = new Browser(app);
    const nothing = await stranger.get('/dashboard/sign-in/two-factor');
    assert.equal(nothing.status, 200);
    assert.match(alert(nothing.body), /Sign in with your email and password first/);
    assert.match(nothing.body, /name="password"/, 'the password form');
    const posted = await stranger.post('/dashboard/sign-in/two-factor', {
      _csrf: csrfOf(nothing),
      code: codes[4]!,
    });
    assert.equal(posted.status, 400);
    assert.ok(!stranger.cookies.has('petstore_session'));
  });

  it('an owner requires it: a member without it is sent to set it up before reaching the project, and gets there once it is on', async () => {
    await addAccount(app, 'owner@example.com', PASSWORD, ['req']);
    await addAccount(app, 'dev@example.com', PASSWORD, []);
    const project = (await app.storage.projects.bySlug('req'))!;
    await app.storage.projects.addMember('acc_dev_example_com', project.id, app.clock.now(), 'developer');
    const owner = new Browser(app);
    await owner.signIn('owner@example.com', PASSWORD);
    const require = async () => {
      const page = await owner.get('/dashboard/projects/req');
      return owner.post('/dashboard/projects/req/two-factor', { _csrf: csrfOf(page), required: 'yes' });
    };
    assert.equal((await require()).status, 303);
    assert.match(
      (await owner.get('/dashboard/projects/req')).body,
      /Turn on two-factor sign-in for your own account first/,
    );
    assert.equal(await app.storage.accounts.twoFactorRequired(project.id), false);
    app.clock.advance(STEP);
    await setUp(owner);
    await require();
    assert.equal(await app.storage.accounts.twoFactorRequired(project.id), true);
    assert.match((await owner.get('/dashboard/projects/req')).body, /Required: members without two-factor/);

    const dev = new Browser(app);
    await dev.signIn('dev@example.com', PASSWORD);
    const sent = await dev.get('/dashboard/projects/req/keys');
    assert.equal(sent.status, 303);
    assert.equal(sent.headers.location, '/dashboard/account/two-factor?project=req');
    const keys = await dev.get('/dashboard/account');
    const posted = await dev.post('/dashboard/projects/req/keys', { _csrf: csrfOf(keys), label: 'x' });
    assert.equal(posted.status, 403, 'a form is refused');
    assert.match(posted.body, /requires two-factor sign-in/);
    assert.equal((await dev.get('/dashboard')).status, 200, 'the project list is still open');
    const enrol = await dev.get(sent.headers.location!);
    assert.match(enrol.body, /Project req requires two-factor sign-in of its members/);
    const outsider = new Browser(app);
    await addAccount(app, 'outsider@example.com', PASSWORD, []);
    await outsider.signIn('outsider@example.com', PASSWORD);
    const probed = await outsider.get('/dashboard/account/two-factor?project=req');
    assert.doesNotMatch(probed.body, /Project req/, 'a project is named to its members only');
    app.clock.advance(STEP);
    await setUp(dev);
    assert.equal((await dev.get('/dashboard/projects/req/keys')).status, 200);
  });

  it('an invitation accepted by an account with two-factor on asks for its code with the password', async () => {
    await addAccount(app, 'cat@example.com', PASSWORD, []);
    const cat = new Browser(app);
    await cat.signIn('cat@example.com', PASSWORD);
    app.clock.advance(STEP);
    const { secret } = await setUp(cat);
    const project = (await app.storage.projects.bySlug('acme'))!;
    const { token } = await invite(app.storage.projects, {
      project,
      email: 'cat@example.com',
      role: 'viewer',
      invitedBy: null,
      now: app.clock.now(),
    });
    const invited = new Browser(app);
    const page = await invited.get(`/dashboard/invitation?token=${token}`);
    const asked = await invited.post('/dashboard/invitation', {
      _csrf: csrfOf(page),
      token,
      password: PASSWORD,
    });
    assert.equal(asked.status, 400);
    assert.match(alert(asked.body), /signs in with a code too/);
    assert.match(asked.body, /name="code"/);
    assert.ok(!invited.cookies.has('petstore_session'));
    app.clock.advance(STEP);
    const joined = await invited.post('/dashboard/invitation', {
      _csrf: csrfOf(page),
      token,
      password: PASSWORD,
      code: codeAt(secret, app.clock.now()),
    });
    assert.equal(joined.status, 303);
    assert.equal(joined.headers.location, '/dashboard/projects/acme');
  });

  it('turning it off needs a code; sign-in then asks for the password only', async () => {
    await addAccount(app, 'dee@example.com', PASSWORD, []);
    const dee = new Browser(app);
    await dee.signIn('dee@example.com', PASSWORD);
    app.clock.advance(STEP);
    const { secret } = await setUp(dee);
    const account = await dee.get('/dashboard/account');
    await dee.post('/dashboard/account/two-factor/disable', { _csrf: csrfOf(account), code: '000000' });
    assert.match((await dee.get('/dashboard/account')).body, /That code is not right/);
    app.clock.advance(STEP);
    await dee.post('/dashboard/account/two-factor/disable', {
      _csrf: csrfOf(account),
      code: codeAt(secret, app.clock.now()),
    });
    assert.match((await dee.get('/dashboard/account')).body, /Two-factor sign-in is off/);
    await new Browser(app).signIn('dee@example.com', PASSWORD);
  });

  it('new recovery codes need a code, are shown once, and the old ones stop working at once', async () => {
    await addAccount(app, 'eve@example.com', PASSWORD, []);
    const eve = new Browser(app);
    await eve.signIn('eve@example.com', PASSWORD);
    app.clock.advance(STEP);
    const { secret, codes } = await setUp(eve);
    const account = await eve.get('/dashboard/account');
    assert.match(account.body, /action="\/dashboard\/account\/two-factor\/recovery-codes"/);
    const wrong = await eve.post('/dashboard/account/two-factor/recovery-codes', {
      _csrf: csrfOf(account),
      code: '000000',
    });
    assert.equal(wrong.status, 303);
    assert.match((await eve.get('/dashboard/account')).body, /That code is not right/);
    app.clock.advance(STEP);
    const renewed = await eve.post('/dashboard/account/two-factor/recovery-codes', {
      _csrf: csrfOf(account),
      code: codeAt(secret, app.clock.now()),
    });
    assert.equal(renewed.status, 303);
    assert.equal(renewed.headers.location, '/dashboard/account');
    const shown = await eve.get('/dashboard/account');
    assert.match(shown.body, /New recovery codes: your old ones no longer work/);
    const fresh = [...shown.body.matchAll(/<li><code>([a-z2-7-]{19})<\/code><\/li>/g)].map((m) => m[1]!);
    assert.equal(fresh.length, 10);
    assert.ok(fresh.every((code) => !codes.includes(code)));
    assert.doesNotMatch((await eve.get('/dashboard/account')).body, /<li><code>/, 'shown once');

    const old = new Browser(app);
    await passwordStep(old, 'eve@example.com');
    assert.equal((await codeStep(old, codes[0]!)).status, 400, 'an old code no longer signs in');
    assert.equal((await codeStep(old, fresh[0]!)).status, 303, 'a new one does');
  });

  it('turning it off in a project that requires it warns, naming the project, and needs the box ticked; set up again from the project, the confirmation links back to it', async () => {
    await addAccount(app, 'fay@example.com', PASSWORD, ['strict', 'lax']);
    await addAccount(app, 'gus@example.com', PASSWORD, ['gated']);
    const strict = (await app.storage.projects.bySlug('strict'))!;
    await app.storage.accounts.setTwoFactorRequired(strict.id, true, app.clock.now());
    await app.storage.accounts.setTwoFactorRequired('prj_gated', true, app.clock.now());
    const fay = new Browser(app);
    await fay.signIn('fay@example.com', PASSWORD);
    app.clock.advance(STEP);
    const { secret } = await setUp(fay);
    const account = await fay.get('/dashboard/account');
    const warning = /id="two-factor-required-by">([\s\S]*?)<\/p>/
      .exec(account.body)?.[1]
      ?.replace(/\s+/g, ' ');
    assert.match(warning ?? '', /Project strict requires two-factor sign-in of its members/);
    assert.doesNotMatch(warning ?? '', /Project lax/, 'only the projects that require it');
    assert.match(account.body, /name="understood"\s+value="yes"\s+required/);

    app.clock.advance(STEP);
    const unticked = await fay.post('/dashboard/account/two-factor/disable', {
      _csrf: csrfOf(account),
      code: codeAt(secret, app.clock.now()),
    });
    assert.equal(unticked.status, 303);
    assert.match(
      alert((await fay.get('/dashboard/account')).body),
      /Project strict requires two-factor sign-in/,
    );
    assert.notEqual(
      (await app.storage.accounts.twoFactor('acc_fay_example_com'))?.confirmedAt,
      undefined,
      'on',
    );
    const off = await fay.post('/dashboard/account/two-factor/disable', {
      _csrf: csrfOf(account),
      code: codeAt(secret, app.clock.now()),
      understood: 'yes',
    });
    assert.equal(off.status, 303);
    assert.match((await fay.get('/dashboard/account')).body, /Two-factor sign-in is off/);

    const sent = await fay.get('/dashboard/projects/strict/keys');
    assert.equal(sent.headers.location, '/dashboard/account/two-factor?project=strict', 'kept out');
    const enrol = await fay.get(sent.headers.location!);
    assert.match(enrol.body, /<input type="hidden" name="project" value="strict" \/>/);
    const enrolled = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
      .exec(enrol.body)![1]!
      .replace(/ /g, '');
    const confirmed = await fay.post('/dashboard/account/two-factor', {
      _csrf: csrfOf(enrol),
      code: codeAt(enrolled, app.clock.now()),
      project: 'strict',
    });
    assert.equal(confirmed.status, 303);
    const shown = await fay.get('/dashboard/account');
    assert.match(
      shown.body,
      /<a class="button" href="\/dashboard\/projects\/strict"\s*>Continue to Project strict<\/a/,
    );
    assert.equal((await fay.get('/dashboard/projects/strict/keys')).status, 200, 'back in');

    // The slug is only a way back to a project of the person's that requires it: never one typed.
    const gus = new Browser(app);
    await gus.signIn('gus@example.com', PASSWORD);
    for (const project of ['strict', 'lax', '//evil.example', 'https://evil.example/']) {
      const page = await gus.get(`/dashboard/account/two-factor?project=${encodeURIComponent(project)}`);
      assert.doesNotMatch(page.body, /name="project"/);
      const gusSecret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
        .exec(page.body)![1]!
        .replace(/ /g, '');
      app.clock.advance(STEP);
      await gus.post('/dashboard/account/two-factor', {
        _csrf: csrfOf(page),
        code: codeAt(gusSecret, app.clock.now()),
        project,
      });
      const after = await gus.get('/dashboard/account');
      assert.match(after.body, /Two-factor sign-in is on/);
      assert.doesNotMatch(after.body, /Continue to/, `no way back to ${project}`);
      app.clock.advance(STEP);
      const code = codeAt(gusSecret, app.clock.now());
      await gus.post('/dashboard/account/two-factor/disable', {
        _csrf: csrfOf(after),
        code,
        understood: 'yes',
      });
      assert.equal(await app.storage.accounts.twoFactor('acc_gus_example_com'), undefined, 'off again');
    }
  });
});
