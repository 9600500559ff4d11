import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { RESET_TTL_MS } from '../src/features/identity/password-reset.ts';
import { addAccount, assertPageHeaders, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, TEST_PASSWORD_STRENGTH, type TestApp } from './harness.ts';
import { linkIn, type MailSink, startMailSink } from './mail-sink.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'quiet meadow lantern 42';

const message = (body: string, role: 'alert' | 'status') =>
  new RegExp(`role="${role}"[^>]*>([^<]*)<`).exec(body)?.[1]?.replace(/\s+/g, ' ').trim();

describe('password reset by a mailed single-use link', () => {
  let app: TestApp;
  let mailbox: MailSink;
  const lines: string[] = [];
  /** The new passwords whose strength the app asked about, through the checker it was given. */
  const judged: string[] = [];
  before(async () => {
    mailbox = await startMailSink();
    app = await makeTestApp({
      logLines: lines,
      mailer: mailbox.mailer(),
      passwordStrength: {
        check: (password, ...rest) => {
          judged.push(password);
          return TEST_PASSWORD_STRENGTH.check(password, ...rest);
        },
      },
    });
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme']);
  });
  after(async () => {
    await app.close();
    await mailbox.close();
  });
  // Each test starts with fresh per-minute windows of the reset throttles.
  beforeEach(() => app.clock.advance(60_000));

  /** Asks for a link from the "Forgot password?" page, as a browser would. */
  const ask = async (email: string, browser = new Browser(app)) => {
    const signIn = await browser.get('/dashboard/sign-in');
    assert.match(signIn.body, /<a href="\/dashboard\/forgot-password">Forgot password\?<\/a>/);
    const page = await browser.get('/dashboard/forgot-password');
    assert.equal(page.status, 200);
    assertPageHeaders(page);
    return browser.post('/dashboard/forgot-password', { _csrf: csrfOf(page), email });
  };

  const mailTo = (to: string) => mailbox.next((mail) => mail.to[0] === to);

  it('an account asks, the mailbox gets a link, a new password is set: every other session ends, the old password stops working, the link works once', async () => {
    const elsewhere = new Browser(app);
    await elsewhere.signIn('ann@example.com', PASSWORD);
    const asked = await ask('Ann@Example.com');
    assert.equal(asked.status, 200);
    assert.equal(
      message(asked.body, 'status'),
      'If ann@example.com has an account, a link to choose a new password is on its way there. It works once, for 30 minutes.',
    );
    const mail = await mailTo('ann@example.com');
    assert.equal(mail.subject, 'Reset your Petstore password');
    const link = linkIn(mail);
    assert.equal(link.pathname, '/dashboard/reset-password');
    const token = link.searchParams.get('token')!;
    assert.ok(mail.html.includes(token), 'the HTML part carries the same link');

    const browser = new Browser(app);
    const form = await browser.get(`${link.pathname}${link.search}`);
    assert.equal(form.status, 200);
    assertPageHeaders(form);
    assert.match(form.body, /For <strong>ann@example.com<\/strong>/);
    const weak = await browser.post('/dashboard/reset-password', {
      _csrf: csrfOf(form),
      token,
      password: 'password1234',
      repeat: 'password1234',
    });
    assert.equal(weak.status, 400);
    assert.match(message(weak.body, 'alert') ?? '', /too easy to guess/);
    assert.deepEqual(judged, ['password1234']);
    const differ = await browser.post('/dashboard/reset-password', {
      _csrf: csrfOf(form),
      token,
      password: NEW_PASSWORD,
      repeat: `${NEW_PASSWORD}!`,
    });
    assert.equal(message(differ.body, 'alert'), 'The two passwords differ.');
    const done = await browser.post('/dashboard/reset-password', {
      _csrf: csrfOf(form),
      token,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(done.status, 303, done.body);
    assert.equal(done.headers.location, '/dashboard/sign-in?reset');
    assert.ok(!browser.cookies.has('petstore_session'), 'a reset signs nobody in');
    assert.match(
      message((await browser.get('/dashboard/sign-in?reset')).body, 'status') ?? '',
      /Your password was reset/,
    );

    assert.equal((await elsewhere.get('/dashboard')).status, 303, 'the other session ended');
    const old = await new Browser(app).post('/dashboard/sign-in', {
      _csrf: csrfOf(await new Browser(app).get('/dashboard/sign-in')),
      email: 'ann@example.com',
      password: PASSWORD,
    });
    assert.notEqual(old.status, 303, 'the old password no longer signs in');
    await new Browser(app).signIn('ann@example.com', NEW_PASSWORD);
    const again = await new Browser(app).get(`${link.pathname}${link.search}`);
    assert.equal(again.status, 404, 'single use');
    assert.match(again.body, /This reset link cannot be used/);
    assert.ok(lines.some((line) => line.includes('"event":"password.reset"')));
    assert.ok(
      lines.every((line) => !line.includes(token)),
      'the token is never logged',
    );
  });

  it('an address without an account gets the same answer, and no mail is sent', async () => {
    const strip = (body: string) =>
      body.replace(/value="[^"]*"/g, '').replace(/[a-z]+@example\.com/g, 'ADDRESS');
    const known = await ask('ann@example.com');
    await mailTo('ann@example.com');
    const unknown = await ask('nobody@example.com');
    assert.equal(unknown.status, known.status);
    assert.equal(strip(unknown.body), strip(known.body));
    await app.app.outbox.idle();
    assert.ok(mailbox.received.every((mail) => mail.to[0] !== 'nobody@example.com'));
    const invalid = await ask('not an address');
    assert.equal(invalid.status, 400);
    assert.match(message(invalid.body, 'alert') ?? '', /is not an email address/);
  });

  it('a link expires after 30 minutes', async () => {
    await ask('ann@example.com');
    const link = linkIn(await mailTo('ann@example.com'));
    app.clock.advance(RESET_TTL_MS);
    assert.equal((await new Browser(app).get(`${link.pathname}${link.search}`)).status, 404);
  });

  it('throttled per address typed (2 a minute) and per client (5 a minute), known or not: 429 with Retry-After', async () => {
    for (const email of ['ann@example.com', 'ghost@example.com']) {
      assert.equal((await ask(email)).status, 200);
      assert.equal((await ask(email)).status, 200);
      const third = await ask(email);
      assert.equal(third.status, 429, email);
      assert.ok(Number(third.headers['retry-after']) > 0);
      assert.match(message(third.body, 'alert') ?? '', /Too many reset requests/);
    }
    const client = await ask('third@example.com');
    assert.equal(client.status, 429, 'the sixth request of this client in a minute');
    // The two links asked for within the limit were mailed.
    await mailTo('ann@example.com');
    await mailTo('ann@example.com');
  });

  it('an account someone else made for the address is won back by a reset from the mailbox: their sessions end, their password stops working', async () => {
    // Whoever chose the password of victim@example.com (before invitations were mailed, say) and is
    // signed in: the mailbox's owner asks for a link.
    await addAccount(app, 'victim@example.com', 'attacker chose this one', ['evil']);
    const attacker = new Browser(app);
    await attacker.signIn('victim@example.com', 'attacker chose this one');
    await ask('victim@example.com');
    const link = linkIn(await mailTo('victim@example.com'));
    const owner = new Browser(app);
    const form = await owner.get(`${link.pathname}${link.search}`);
    const done = await owner.post('/dashboard/reset-password', {
      _csrf: csrfOf(form),
      token: link.searchParams.get('token')!,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(done.status, 303);
    assert.equal((await attacker.get('/dashboard')).status, 303, "the attacker's session ended");
    const page = await new Browser(app).get('/dashboard/sign-in');
    const retry = await new Browser(app).post('/dashboard/sign-in', {
      _csrf: csrfOf(page),
      email: 'victim@example.com',
      password: 'attacker chose this one',
    });
    assert.notEqual(retry.status, 303);
    await new Browser(app).signIn('victim@example.com', NEW_PASSWORD);
  });

  it('a password change ends the account’s pending reset links', async () => {
    await ask('ann@example.com');
    const link = linkIn(await mailTo('ann@example.com'));
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', NEW_PASSWORD);
    const account = await ann.get('/dashboard/account');
    const changed = await ann.post('/dashboard/account/password', {
      _csrf: csrfOf(account),
      current: NEW_PASSWORD,
      password: 'another quiet meadow 7',
      repeat: 'another quiet meadow 7',
    });
    assert.equal(changed.status, 303);
    assert.equal((await new Browser(app).get(`${link.pathname}${link.search}`)).status, 404);
  });
});
