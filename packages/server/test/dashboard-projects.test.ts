import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  addAccount,
  assertPageHeaders,
  Browser,
  createKeyIn,
  csrfOf,
  secretOf,
} from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('dashboard projects and API keys', () => {
  let app: TestApp;
  let ann: Browser;
  before(async () => {
    app = await makeTestApp();
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme', 'zoo']);
    await addAccount(app, 'bob@example.com', PASSWORD, ['bobs']);
    await app.storage.projects.rename('acme', 'Acme Docs');
    ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
  });
  after(() => app.close());
  beforeEach(() => app.clock.advance(60_000));

  it('GET /dashboard → only the projects the account is a member of, with plan and docs host', async () => {
    const page = await ann.get('/dashboard');
    assert.equal(page.status, 200);
    assertPageHeaders(page);
    assert.match(page.body, /href="\/dashboard\/projects\/acme"/);
    assert.match(page.body, /href="\/dashboard\/projects\/zoo"/);
    assert.doesNotMatch(page.body, /bobs/);
    assert.match(page.body, /acme\.sites\.localhost/);
  });

  it('GET /dashboard/projects/acme → name, plan, limits per project shared by its keys, the docs site link, what each plan allows', async () => {
    const page = await ann.get('/dashboard/projects/acme');
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1>Acme Docs <span class="badge">Free<\/span><\/h1>/);
    assert.match(page.body, /60 requests per project, shared by its keys/);
    assert.match(page.body, /1,000 requests per project, shared by its keys/);
    assert.match(page.body, /href="http:\/\/acme\.sites\.localhost\/"/);
    assert.match(page.body, /<tr class="current">\s*<td>Free/);
  });

  it('POST /dashboard/projects/acme → 303 and "Saved." once; a blank or control-character name → 303, the reason once, unchanged', async () => {
    const page = await ann.get('/dashboard/projects/zoo');
    const saved = await ann.post('/dashboard/projects/zoo', { _csrf: csrfOf(page), name: '  Zoo <API> ✓ ' });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.location, '/dashboard/projects/zoo');
    assert.equal((await app.storage.projects.bySlug('zoo'))!.name, 'Zoo <API> ✓');
    const shown = await ann.get('/dashboard/projects/zoo');
    assert.match(shown.body, /Zoo &lt;API&gt; ✓/, 'the name is escaped on the page');
    assert.match(shown.body, /role="status"[^>]*>Saved\.</);
    assert.doesNotMatch((await ann.get('/dashboard/projects/zoo')).body, /Saved\./, 'once');
    for (const name of ['   ', 'a\u0007b', 'x'.repeat(101)]) {
      const refused = await ann.post('/dashboard/projects/zoo', { _csrf: csrfOf(page), name });
      assert.equal(refused.status, 303, JSON.stringify(name));
      const again = await ann.get('/dashboard/projects/zoo');
      assert.match(again.body, /role="alert"/);
      assert.match(again.body, /aria-invalid="true"/);
    }
    assert.equal((await app.storage.projects.bySlug('zoo'))!.name, 'Zoo <API> ✓');
  });

  it('POST /dashboard/projects/acme/keys → 303 to the keys page, which shows the key once; it works against /v1/pets with the project plan limits', async () => {
    const created = await createKeyIn(ann, 'acme', 'iOS <app>');
    assertPageHeaders(created);
    const secret = secretOf(created);
    assert.match(created.body, /“iOS &lt;app&gt;” \(ps_test_[\w-]{4}…, created 2026-11-22 \d\d:\d\d UTC\)/);
    const api = await app.request({ url: '/v1/pets', key: secret });
    assert.equal(api.status, 200);
    assert.equal(api.headers['x-ratelimit-limit'], '60');
    const again = await ann.get('/dashboard/projects/acme/keys');
    assert.doesNotMatch(again.body, new RegExp(secret), 'the secret is never shown again');
    assert.match(again.body, new RegExp(`${secret.slice(0, 12)}…`), 'its prefix is');
    assert.match(again.body, /1 \/ 60 this minute/);
    assert.match(again.body, /1 \/ 1,000 today/);
  });

  it('a plan change by the operator applies to every key of the project on its next request', async () => {
    const secret = secretOf(await createKeyIn(ann, 'acme', 'plan'));
    assert.equal((await app.request({ url: '/v1/pets', key: secret })).headers['x-ratelimit-limit'], '60');
    await app.storage.projects.setPlan('acme', 'pro', null, null);
    assert.equal((await app.request({ url: '/v1/pets', key: secret })).headers['x-ratelimit-limit'], '300');
    await app.storage.projects.setPlan('acme', 'free', null, null);
  });

  it('POST /dashboard/projects/acme/keys with a label over 100 characters → 303, the reason once with the label kept, no key', async () => {
    const before = (await app.storage.keys.list()).length;
    const page = await ann.get('/dashboard/projects/acme/keys');
    const refused = await ann.post('/dashboard/projects/acme/keys', {
      _csrf: csrfOf(page),
      label: 'x'.repeat(101),
    });
    assert.equal(refused.status, 303);
    const shown = await ann.get(refused.headers.location!);
    assert.match(shown.body, /at most 100 characters/);
    assert.match(shown.body, new RegExp(`value="${'x'.repeat(101)}"`));
    assert.equal((await app.storage.keys.list()).length, before);
  });

  it('revoke → a confirmation page, then 303 and the key is refused with 401 at once', async () => {
    const secret = secretOf(await createKeyIn(ann, 'acme', 'to revoke'));
    const key = (await app.storage.keys.list()).find((k) => k.label === 'to revoke')!;
    const confirm = await ann.get(`/dashboard/projects/acme/keys/${key.id}/revoke`);
    assert.equal(confirm.status, 200);
    const named = `“to revoke” \\(${key.prefix}…, created 2026-11-22 \\d\\d:\\d\\d UTC\\)`;
    assert.match(confirm.body.replace(/<[^>]+>/g, ''), new RegExp(`Revoke ${named}\\?`));
    const revoked = await ann.post(`/dashboard/projects/acme/keys/${key.id}/revoke`, {
      _csrf: csrfOf(confirm),
    });
    assert.equal(revoked.status, 303);
    assert.equal(revoked.headers.location, '/dashboard/projects/acme/keys');
    assert.equal((await app.request({ url: '/v1/pets', key: secret })).status, 401);
    const list = await ann.get(revoked.headers.location!);
    assert.match(list.body, new RegExp(`${named} was revoked`));
    assert.equal((await ann.get(`/dashboard/projects/acme/keys/${key.id}/revoke`)).status, 404, 'not twice');
  });

  it("another project's pages and forms → 404 as if it did not exist, nothing written", async () => {
    const bob = new Browser(app);
    await bob.signIn('bob@example.com', PASSWORD);
    const bobsKey = secretOf(await createKeyIn(bob, 'bobs', 'bob'));
    const key = (await app.storage.keys.list()).find((k) => k.label === 'bob')!;
    const annsToken = csrfOf(await ann.get('/dashboard'));
    const keysBefore = (await app.storage.keys.list()).length;
    const attempts = [
      await ann.get('/dashboard/projects/bobs'),
      await ann.get('/dashboard/projects/bobs/keys'),
      await ann.get(`/dashboard/projects/bobs/keys/${key.id}/revoke`),
      await ann.post('/dashboard/projects/bobs', { _csrf: annsToken, name: 'Taken over' }),
      await ann.post('/dashboard/projects/bobs/keys', { _csrf: annsToken, label: 'intruder' }),
      await ann.post(`/dashboard/projects/bobs/keys/${key.id}/revoke`, { _csrf: annsToken }),
      await ann.post(`/dashboard/projects/acme/keys/${key.id}/revoke`, { _csrf: annsToken }),
      await ann.get('/dashboard/projects/nonexistent'),
    ];
    for (const response of attempts) {
      assert.equal(response.status, 404);
      assertPageHeaders(response);
    }
    assert.equal((await app.storage.projects.bySlug('bobs'))!.name, 'Project bobs');
    assert.equal((await app.storage.keys.list()).length, keysBefore);
    assert.equal((await app.request({ url: '/v1/pets', key: bobsKey })).status, 200, "bob's key still works");
  });

  it("every form with the session's token missing or another session's → 403, nothing written", async () => {
    const bob = new Browser(app);
    await bob.signIn('bob@example.com', PASSWORD);
    const bobsToken = csrfOf(await bob.get('/dashboard'));
    const keysBefore = (await app.storage.keys.list()).length;
    for (const token of [undefined, bobsToken, '']) {
      const form: Record<string, string> = token === undefined ? {} : { _csrf: token };
      for (const [url, fields] of [
        ['/dashboard/projects/acme', { name: 'Forged' }],
        ['/dashboard/projects/acme/keys', { label: 'forged' }],
        ['/dashboard/sign-out', {}],
      ] as const) {
        const response = await ann.post(url, { ...form, ...fields });
        assert.equal(response.status, 403, `${url} with ${token ? 'another token' : 'no token'}`);
      }
    }
    assert.equal((await app.storage.projects.bySlug('acme'))!.name, 'Acme Docs');
    assert.equal((await app.storage.keys.list()).length, keysBefore);
    assert.equal((await ann.get('/dashboard')).status, 200, 'still signed in');
  });

  it('GET /dashboard/nothing → a 404 page; GET /dashboard/assets/dashboard.css → the style sheet', async () => {
    const missing = await ann.get('/dashboard/nothing');
    assert.equal(missing.status, 404);
    assertPageHeaders(missing);
    const css = await ann.get('/dashboard/assets/dashboard.css');
    assert.equal(css.status, 200);
    assert.match(css.headers['content-type'] ?? '', /^text\/css/);
  });
});
