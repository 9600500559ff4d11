import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { addAccount, assertPageHeaders, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a-new-long-passphrase';

/** The text of a page's alert or status message. */
const message = (body: string, role: 'alert' | 'status') =>
  new RegExp(`role="${role}"[^>]*>([^<]*)<`).exec(body)?.[1]?.trim();

describe('dashboard account: change password, sign out everywhere; members: remove', () => {
  let app: TestApp;
  const lines: string[] = [];
  let n = 0;
  let email: string;
  let id: string;
  before(async () => {
    app = await makeTestApp({ logLines: lines });
  });
  after(() => app.close());
  beforeEach(async () => {
    email = `ann${++n}@example.com`;
    id = await addAccount(app, email, PASSWORD, [`acme${n}`]);
    app.clock.advance(60_000);
  });

  const signedIn = async (who = email, password = PASSWORD) => {
    const browser = new Browser(app);
    await browser.signIn(who, password);
    return browser;
  };
  const changePassword = async (browser: Browser, form: Record<string, string>) => {
    const page = await browser.get('/dashboard/account');
    const response = await browser.post('/dashboard/account/password', { _csrf: csrfOf(page), ...form });
    assert.equal(response.status, 303);
    assert.equal(response.headers.location, '/dashboard/account');
    return browser.get('/dashboard/account');
  };

  it('GET /dashboard/account → the forms, with the page headers; POST without the session token → 403, nothing changed', async () => {
    const browser = await signedIn();
    const page = await browser.get('/dashboard/account');
    assert.equal(page.status, 200);
    assertPageHeaders(page);
    assert.match(page.body, /action="\/dashboard\/account\/password"/);
    assert.match(page.body, /Sign out everywhere/);
    const forged = { _csrf: 'A'.repeat(43), current: PASSWORD, password: NEW_PASSWORD, repeat: NEW_PASSWORD };
    assert.equal((await browser.post('/dashboard/account/password', forged)).status, 403);
    assert.equal((await browser.post('/dashboard/account/sign-out-everywhere', { _csrf: 'x' })).status, 403);
    assert.equal((await browser.get('/dashboard')).status, 200);
    await signedIn(email, PASSWORD);
  });

  it('POST /dashboard/account/password → 303 and each refusal shown once with its reason; the password stays', async () => {
    const browser = await signedIn();
    const cases: [Record<string, string>, RegExp][] = [
      [
        { current: 'not my password', password: NEW_PASSWORD, repeat: NEW_PASSWORD },
        /current password is not right/,
      ],
      [{ current: PASSWORD, password: NEW_PASSWORD, repeat: `${NEW_PASSWORD}!` }, /two new passwords differ/],
      [{ current: PASSWORD, password: ' '.repeat(12), repeat: ' '.repeat(12) }, /must not be all whitespace/],
      [{ current: PASSWORD, password: 'short', repeat: 'short' }, /at least 12 characters/],
      [
        { current: PASSWORD, password: 'password1234', repeat: 'password1234' },
        /too easy to guess \(this is similar to a commonly used password\)/,
      ],
      [
        { current: PASSWORD, password: 'aaaaaaaaaaaa', repeat: 'aaaaaaaaaaaa' },
        /too easy to guess \(repeated characters/,
      ],
      [{ current: PASSWORD, password: PASSWORD, repeat: PASSWORD }, /must differ from the current one/],
    ];
    for (const [form, reason] of cases) {
      const page = await changePassword(browser, form);
      assert.match(message(page.body, 'alert') ?? '', reason, JSON.stringify(form));
      assert.doesNotMatch(page.body, /correct horse|a-new-long/, 'no password is shown back');
      const reload = await browser.get('/dashboard/account');
      assert.equal(message(reload.body, 'alert'), undefined, 'shown once');
    }
    await signedIn(email, PASSWORD);
  });

  it('POST /dashboard/account/password → changed; the other sessions end, this one stays; one log line, no secret', async () => {
    const elsewhere = await signedIn();
    const browser = await signedIn();
    const from = lines.length;
    const page = await changePassword(browser, {
      current: PASSWORD,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(message(page.body, 'status'), 'Your password was changed. 1 other session ended.');
    assert.equal((await browser.get('/dashboard')).status, 200);
    assert.equal((await elsewhere.get('/dashboard')).status, 303, 'signed out elsewhere');
    const logged = lines
      .slice(from)
      .map((line) => JSON.parse(line))
      .filter((line) => line.event);
    assert.deepEqual(
      logged.map((line) => [line.event, line.accountId, line.endedSessions]),
      [['password.changed', id, 1]],
    );
    assert.doesNotMatch(lines.slice(from).join('\n'), /correct horse|a-new-long/);
    const old = new Browser(app);
    const form = await old.get('/dashboard/sign-in');
    assert.equal(
      (await old.post('/dashboard/sign-in', { _csrf: csrfOf(form), email, password: PASSWORD })).status,
      400,
    );
    await signedIn(email, NEW_PASSWORD);
  });

  it('POST /dashboard/account/sign-out-everywhere → every session of the account ends, this one too; others keep theirs', async () => {
    const other = await signedIn();
    const browser = await signedIn();
    await addAccount(app, `bystander${n}@example.com`, PASSWORD, []);
    const bystander = await signedIn(`bystander${n}@example.com`);
    const page = await browser.get('/dashboard/account');
    assert.match(page.body, /in <strong>2<\/strong> browsers/);
    const out = await browser.post('/dashboard/account/sign-out-everywhere', { _csrf: csrfOf(page) });
    assert.equal(out.status, 303);
    assert.equal(out.headers.location, '/dashboard/sign-in?signedOut');
    assert.equal((await browser.get('/dashboard')).status, 303);
    assert.equal((await other.get('/dashboard')).status, 303);
    assert.equal((await bystander.get('/dashboard')).status, 200);
  });

  it('POST …/members/:accountId/remove → the member loses the project and every session; the last owner stays', async () => {
    const slug = `acme${n}`;
    const project = (await app.storage.projects.bySlug(slug))!;
    const memberId = await addAccount(app, `dev${n}@example.com`, PASSWORD, []);
    await app.storage.projects.addMember(memberId, project.id, app.clock.now(), 'developer');
    const member = await signedIn(`dev${n}@example.com`);
    assert.equal((await member.get(`/dashboard/projects/${slug}`)).status, 200);
    const owner = await signedIn();
    const members = await owner.get(`/dashboard/projects/${slug}/members`);
    assert.match(members.body, new RegExp(`dev${n}@example.com`));
    const confirm = await owner.get(`/dashboard/projects/${slug}/members/${memberId}/remove`);
    assert.match(confirm.body, new RegExp(`Remove dev${n}@example.com from Project ${slug}\\?`));
    assert.equal(
      (await owner.post(`/dashboard/projects/${slug}/members/${memberId}/remove`, { _csrf: 'forged' }))
        .status,
      403,
    );
    const removed = await owner.post(`/dashboard/projects/${slug}/members/${memberId}/remove`, {
      _csrf: csrfOf(confirm),
    });
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.location, `/dashboard/projects/${slug}/members`);
    const after = await owner.get(removed.headers.location!);
    assert.match(message(after.body, 'status') ?? '', /was removed; their sessions have ended/);
    assert.equal((await member.get('/dashboard')).status, 303, 'their session ended');
    const again = await signedIn(`dev${n}@example.com`);
    assert.equal((await again.get(`/dashboard/projects/${slug}`)).status, 404);
    const last = await owner.post(`/dashboard/projects/${slug}/members/${id}/remove`, {
      _csrf: csrfOf(after),
    });
    assert.equal(last.status, 303);
    const refused = await owner.get(`/dashboard/projects/${slug}/members`);
    assert.match(
      message(refused.body, 'alert') ?? '',
      /is the last owner of Project acme\d+: make another member an owner first/,
    );
    assert.equal(await app.storage.projects.roleOf(id, project.id), 'owner');
  });
});
