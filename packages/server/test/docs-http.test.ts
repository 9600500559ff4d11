import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';

describe('docs over HTTP', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.request({ url, key: null, headers, unchecked: !url.startsWith('/docs') || url.includes('/assets/') });

  it('GET /docs → 200 HTML titled with the contract title, a strict CSP, revalidated by ETag, no key needed', async () => {
    const response = await get('/docs');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(response.body, /<title>Pet Store API · API reference<\/title>/);
    assert.match(response.body, /<meta name="petstore-api-origin" content="" \/>/);
    const csp = response.headers['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.equal(response.headers['x-ratelimit-limit'], '1200', 'counted in the public budget');
    const again = await app.request({
      url: '/docs',
      key: null,
      headers: { 'if-none-match': response.headers.etag! },
      unchecked: true,
    });
    assert.equal(again.status, 304);
  });

  it('GET /docs → every module of the page preloaded, so they arrive in one round trip', async () => {
    const { body } = await get('/docs');
    for (const name of ['code-panel.js', 'samples.js', 'search.js', 'try-it.js']) {
      assert.ok(body.includes(`<link rel="modulepreload" href="/docs/assets/${name}" />`), name);
    }
  });

  it('GET /docs/assets/petstore-client.js → the typed client for browsers, one module importing only the lossless JSON asset', async () => {
    const entry = await get('/docs/assets/petstore-client.js');
    assert.equal(entry.status, 200);
    assert.equal(entry.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.deepEqual(
      [...entry.body.matchAll(/from\s*["']([^"']+)["']/g)].map((match) => match[1]),
      ['./lossless-json.js'],
    );
    assert.match(entry.body, /export\s*\{[^}]*createPetstoreClient/);
    assert.doesNotMatch(entry.body, /\.ts["']|import type|: Promise</);
    assert.equal(
      (await get('/docs/assets/petstore-client-client.js')).status,
      404,
      'no module of its own any more',
    );
  });

  it('GET /docs/ → 301 to /docs with the query kept', async () => {
    for (const [url, location] of [
      ['/docs/', '/docs'],
      ['/docs/?tag=pets', '/docs?tag=pets'],
    ]) {
      const response = await app.request({ url: url!, key: null, unchecked: true });
      assert.equal(response.status, 301, url);
      assert.equal(response.headers.location, location, url);
    }
  });

  it('GET /docs/assets/nothing.js → 404', async () => {
    assert.equal((await get('/docs/assets/nothing.js')).status, 404);
  });
});
