import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addAccount, assertPageHeaders, Browser, csrfOf } from '../../../test/dashboard-support.ts';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';

const PASSWORD = 'correct horse battery staple';
const PAGE = '/dashboard/account/tokens';

describe('dashboard: Account → Access tokens', () => {
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    app = await makeTestApp();
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme', 'beta']);
    browser = new Browser(app);
    await browser.signIn('ann@example.com', PASSWORD);
  });
  after(() => app.close());

  const create = async (form: Record<string, string>) => {
    const response = await browser.post(PAGE, { _csrf: csrfOf(await browser.get(PAGE)), ...form });
    assert.equal(response.status, 303);
    assert.equal(response.headers.location, PAGE);
    return browser.get(PAGE);
  };

  it('creates a token shown once, stored as a digest, that reaches only the chosen projects', async () => {
    const page = await create({ name: 'deploy', scope: 'write', 'project:acme': 'on', expires: '30' });
    assertPageHeaders(page);
    const secret = /<output id="new-secret">(ps_at_[A-Za-z0-9_-]{43})<\/output>/.exec(page.body)?.[1];
    assert.ok(secret, 'the page shows the new token');
    assert.doesNotMatch((await browser.get(PAGE)).body, new RegExp(secret), 'shown once');
    const stored = await app.storage.sql.all('SELECT digest FROM access_tokens');
    assert.ok(stored.every((row) => row.digest !== secret && /^[0-9a-f]{64}$/.test(String(row.digest))));
    const projects = await app.request({ url: '/manage/v1/projects', key: secret });
    assert.deepEqual(
      (JSON.parse(projects.body) as { data: { slug: string }[] }).data.map((project) => project.slug),
      ['acme'],
    );
  });

  it('refuses a token without a name, a project or a known lifetime, and names the problem', async () => {
    for (const [form, problem] of [
      [{ name: '', scope: 'read', 'project:acme': 'on', expires: '30' }, /name is required/],
      [{ name: 'x', scope: 'read', expires: '30' }, /at least one project/],
      [{ name: 'x', scope: 'read', 'project:nope': 'on', expires: '30' }, /member of/],
      [{ name: 'x', scope: 'read', 'project:acme': 'on', expires: '1000' }, /expires in/],
      [{ name: 'x', scope: 'admin', 'project:acme': 'on', expires: '30' }, /read or write/],
    ] as const) {
      const page = await create(form);
      assert.match(page.body, problem);
      assert.doesNotMatch(page.body, /new-secret/);
    }
  });

  it('revokes a token after asking, naming it: it stops at once, and the trail records both', async () => {
    const page = await create({ name: 'short', scope: 'read', 'project:beta': 'on', expires: '7' });
    const secret = /<output id="new-secret">(ps_at_[A-Za-z0-9_-]{43})<\/output>/.exec(page.body)![1]!;
    assert.equal((await app.request({ url: '/manage/v1/projects/beta', key: secret })).status, 200);
    const [row] = await app.storage.sql.all("SELECT id FROM access_tokens WHERE name = 'short'");
    const listed = await browser.get(PAGE);
    assert.match(listed.body, new RegExp(`href="${PAGE}/${String(row!.id)}/revoke"`));
    const asked = await browser.get(`${PAGE}/${String(row!.id)}/revoke`);
    assert.equal(asked.status, 200);
    assert.match(asked.body, /Revoke “short” \(<span class="mono">ps_at_.{4}…<\/span>\)\?/);
    assert.equal(
      (await app.request({ url: '/manage/v1/projects/beta', key: secret })).status,
      200,
      'asking revokes nothing',
    );
    const revoked = await browser.post(`${PAGE}/${String(row!.id)}/revoke`, { _csrf: csrfOf(asked) });
    assert.equal(revoked.status, 303);
    assert.match((await browser.get(PAGE)).body, /was revoked/);
    assert.equal((await app.request({ url: '/manage/v1/projects/beta', key: secret })).status, 401);
    const actions = await app.storage.sql.all(
      "SELECT action, via FROM audit_log WHERE action LIKE 'access_token%' ORDER BY id",
    );
    assert.ok(actions.some((event) => event.action === 'access_token_revoked' && event.via === 'dashboard'));
    const gone = await browser.get(`${PAGE}/${String(row!.id)}/revoke`);
    assert.equal(gone.status, 303, 'a token no longer active is not asked about');
  });
});
