import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { assertMatchesContract } from './openapi-validator.ts';
import { verifiedDomain } from './dashboard-forms.ts';

/** What Chromium sends when it opens a page. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
/** What API clients send: nothing, curl's and fetch's default, JSON. */
const API_CLIENTS: (string | undefined)[] = [undefined, '*/*', 'application/json', 'application/json, */*'];

const get = (
  app: TestApp,
  url: string,
  {
    host = 'localhost:8080',
    accept,
    key = null,
  }: { host?: string; accept?: string; key?: string | null } = {},
) =>
  app.request({
    url,
    key,
    headers: { host, ...(accept === undefined ? {} : { accept }) },
    unchecked: true,
  });

/** A styled error page: HTML, its one style sheet allowed by digest in a CSP without scripts. */
function assertErrorPage(response: TestResponse, status: number, title: RegExp): void {
  assert.equal(response.status, status);
  assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(response.body, /^<!doctype html>/);
  assert.match(response.body, title);
  assert.match(response.body, /request id <code>[^<]+<\/code>/);
  const style = /<style>([^<]*)<\/style>/.exec(response.body)?.[1];
  assert.ok(style, 'the page carries its style sheet');
  const digest = createHash('sha256').update(style).digest('base64');
  const csp = response.headers['content-security-policy'] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.ok(csp.includes(`style-src 'sha256-${digest}'`), `the CSP allows that style sheet: ${csp}`);
  assert.doesNotMatch(csp, /script-src|unsafe-inline/);
  assert.doesNotMatch(response.body, /<script/);
}

function assertErrorBody(response: TestResponse, status: number, code: string): void {
  assert.equal(response.status, status);
  assert.match(response.headers['content-type'] ?? '', /^application\/json/);
  assert.equal((response.json() as { code: string }).code, code);
}

describe('errors as pages for browsers, the Error body for API clients (PETSTORE_API_HOST unset)', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
    await app.signedInMember('acme');
  });
  after(() => app.close());

  it('GET /nothing on the API host, Accept of a browser → a 404 page linking the reference, Vary: Accept', async () => {
    const page = await get(app, '/nothing', { accept: BROWSER });
    assertErrorPage(page, 404, /<h1>Not found<\/h1>/);
    assert.match(page.body, /No resource at \/nothing/);
    assert.match(page.body, /<a href="\/docs">The API reference<\/a>/);
    assert.match(page.headers.vary ?? '', /\bAccept\b/);
    assert.ok(page.headers['x-ratelimit-limit'], 'the rate-limit headers stay');
    assert.ok(page.headers['x-request-id'] && page.body.includes(page.headers['x-request-id']));
  });

  it('GET /nothing on the API host from API clients (no Accept, */*, application/json) → the Error body', async () => {
    for (const accept of API_CLIENTS) {
      const response = await get(app, '/nothing', { accept });
      assertErrorBody(response, 404, 'not_found');
      assert.match(response.headers.vary ?? '', /\bAccept\b/, String(accept));
    }
  });

  it('/v1 answers JSON whatever Accept says: 401, 404 and 405 for a browser are the Error body', async () => {
    for (const accept of [BROWSER, 'text/html', ...API_CLIENTS]) {
      const unauthorized = await get(app, '/v1/pets', { accept });
      assertErrorBody(unauthorized, 401, 'unauthorized');
      assertMatchesContract({ method: 'GET', path: '/v1/pets', ...unauthorized });
      assertErrorBody(await get(app, '/v1/nothing', { accept, key: app.key }), 404, 'not_found');
      const notAllowed = await app.request({
        method: 'DELETE',
        url: '/v1/pets',
        headers: accept === undefined ? {} : { accept },
        unchecked: true,
      });
      assertErrorBody(notAllowed, 405, 'method_not_allowed');
    }
  });

  it('POST /docs from a browser → a 405 page with Allow; from curl → the Error body with Allow', async () => {
    const page = await app.request({
      method: 'POST',
      url: '/docs',
      key: null,
      headers: { accept: BROWSER },
      unchecked: true,
    });
    assertErrorPage(page, 405, /<h1>Not allowed<\/h1>/);
    assert.match(page.headers.allow ?? '', /GET/);
    const body = await app.request({ method: 'POST', url: '/docs', key: null, unchecked: true });
    assertErrorBody(body, 405, 'method_not_allowed');
    assert.match(body.headers.allow ?? '', /GET/);
  });

  it('a docs site: an unknown slug and an unknown page → the 404 page, with the project named where known', async () => {
    const unknown = await get(app, '/', { host: 'nope.sites.localhost:8080', accept: BROWSER });
    assertErrorPage(unknown, 404, /No docs site is published at this address/);
    const missing = await get(app, '/nothing', { host: 'acme.sites.localhost:8080', accept: BROWSER });
    assertErrorPage(
      missing,
      404,
      /<header><span class="mark" aria-hidden="true">P<\/span>Project acme<\/header>/,
    );
    assert.match(missing.body, /<a href="\/">The Project acme API reference<\/a>/);
  });

  it("a removed custom domain → never the project's docs; a browser gets the styled 404 page", async () => {
    const project = (await app.storage.projects.bySlug('acme'))!;
    const now = app.clock.now();
    await app.storage.domains.add(verifiedDomain('docs.removed.example', project.id, now));
    assert.ok(await app.storage.domains.remove(project.id, 'docs.removed.example', now));
    // With no API host configured, a name no project serves is like any other host: the API's.
    for (const url of ['/', '/docs', '/nothing']) {
      const page = await get(app, url, { host: 'docs.removed.example', accept: BROWSER });
      assert.doesNotMatch(page.body, /content="Project acme"/, url);
    }
    assertErrorPage(
      await get(app, '/nothing', { host: 'docs.removed.example', accept: BROWSER }),
      404,
      /<h1>Not found<\/h1>/,
    );
  });

  it('the dashboard keeps its own error pages (its layout and style sheet)', async () => {
    const response = await get(app, '/dashboard/nothing', { accept: BROWSER });
    assert.equal(response.status, 404);
    assert.match(response.body, /\/dashboard\/assets\/dashboard\.css/);
  });
});

describe('errors as pages with PETSTORE_API_HOST set: hosts that are not the API', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp({ hosts: { siteDomain: 'sites.example.test', apiHost: 'api.example.test' } });
  });
  after(() => app.close());

  it('any path of another host → a 404 page for a browser (no link to pages it does not have), JSON for API clients', async () => {
    for (const url of ['/', '/dashboard', '/docs', '/nothing']) {
      const page = await get(app, url, { host: 'other.example.test', accept: BROWSER });
      assertErrorPage(page, 404, /<h1>Not found<\/h1>/);
      assert.doesNotMatch(page.body, /<a href/, url);
      for (const accept of API_CLIENTS) {
        assertErrorBody(await get(app, url, { host: 'other.example.test', accept }), 404, 'not_found');
      }
    }
  });

  it('/v1 on another host: 404 not_found, with a key or without (no API there to ask a key for)', async () => {
    for (const url of ['/v1/pets', '/v1/pets/1', '/v1/openapi.json', '/v1/nothing']) {
      for (const key of [null, app.key]) {
        const response = await get(app, url, { host: 'other.example.test', accept: BROWSER, key });
        assert.equal(response.status, 404, `${url} ${key ? 'with' : 'without'} a key`);
        assert.equal(response.headers['www-authenticate'], undefined, url);
      }
    }
  });

  it('the API host: a 404 page links its reference', async () => {
    const page = await get(app, '/nothing', { host: 'api.example.test', accept: BROWSER });
    assertErrorPage(page, 404, /<a href="\/docs">The API reference<\/a>/);
  });
});
