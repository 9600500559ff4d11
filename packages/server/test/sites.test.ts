import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { eventually, TEST_CHANGE_POLL_MS } from './eventually.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const get = (app: TestApp, host: string, url = '/', key: string | null = null) =>
  app.request({ url, key, headers: { host }, unchecked: true });

describe('published docs sites, routed by host', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp({
      publicBaseUrl: 'https://api.petstore.example/v1',
      changePollMs: TEST_CHANGE_POLL_MS,
    });
    await app.signedInMember('acme');
    await app.signedInMember('zoo');
    await app.storage.projects.rename('acme', 'Acme <Docs>');
  });
  after(() => app.close());

  it("GET / on <slug>.sites.localhost → the reference titled with the project's name, try-it pointed at the API", async () => {
    const page = await get(app, 'acme.sites.localhost');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    assert.match(page.body, /<title>Acme &lt;Docs&gt; · API reference<\/title>/);
    assert.match(page.body, /<meta name="petstore-docs-title" content="Acme &lt;Docs&gt;" \/>/);
    assert.match(page.body, /<meta name="petstore-api-origin" content="https:\/\/api.petstore.example" \/>/);
    assert.match(
      page.headers['content-security-policy'] ?? '',
      /connect-src 'self' https:\/\/api\.petstore\.example/,
    );
    const script = await get(app, 'acme.sites.localhost', '/docs/assets/app.js');
    assert.equal(script.status, 200);
  });

  it("a site shows what its readers can use: the Pets and Store operations on the API's public origin", async () => {
    const page = await get(app, 'acme.sites.localhost');
    assert.match(
      page.body,
      /<meta name="petstore-reference" content="\/docs\/assets\/site-reference\.json" \/>/,
    );
    const reference = await get(app, 'acme.sites.localhost', '/docs/assets/site-reference.json');
    assert.equal(reference.status, 200);
    const document = JSON.parse(reference.body) as {
      servers: { url: string }[];
      paths: Record<string, unknown>;
      tags: { name: string }[];
      'x-search': { anchor: string }[];
      'x-client-package': { name: string; file: string };
    };
    assert.deepEqual(
      document.servers,
      [{ url: '/v1' }],
      'no example address: the page puts the API origin in front',
    );
    assert.deepEqual(Object.keys(document.paths), ['/pets', '/pets/{petId}', '/store/orders']);
    assert.deepEqual(
      document.tags.map((tag) => tag.name),
      ['Pets', 'Store'],
    );
    assert.doesNotMatch(
      JSON.stringify(document['x-search']),
      /healthz|readyz|getMetrics|getDocs|petstore\.example/,
    );
    assert.deepEqual(document['x-client-package'], {
      name: '@petstore/client',
      file: 'petstore-client-1.0.0.tgz',
    });
  });

  it('the same site whatever the spelling of its host: case, port, trailing dot', async () => {
    for (const host of ['ACME.Sites.LocalHost', 'acme.sites.localhost:8080', 'acme.sites.localhost.']) {
      const page = await get(app, host);
      assert.equal(page.status, 200, host);
      assert.match(page.body, /Acme &lt;Docs&gt;/, host);
    }
  });

  it('an unknown slug, a deeper name or another page → a 404 page, never another project site', async () => {
    for (const [host, url] of [
      ['nope.sites.localhost', '/'],
      ['x.acme.sites.localhost', '/'],
      ['-acme.sites.localhost', '/'],
      ['acme.sites.localhost', '/nothing'],
      ['acme.sites.localhost', '/dashboard'],
      ['acme.sites.localhost', '/docs'],
    ]) {
      const page = await get(app, host!, url);
      assert.equal(page.status, 404, `${host}${url}`);
      assert.match(page.headers['content-type'] ?? '', /^text\/html/);
      assert.doesNotMatch(page.body, /petstore-docs-title/);
    }
  });

  it('/v1 answers on the API host only: a site host never serves pets, even with a valid key', async () => {
    const viaSite = await get(app, 'acme.sites.localhost', '/v1/pets', app.key);
    assert.notEqual(viaSite.status, 200);
    const viaApi = await get(app, 'localhost:8080', '/v1/pets', app.key);
    assert.equal(viaApi.status, 200);
  });

  it("the API lets exactly the projects' site origins read it (try-it), no other origin", async () => {
    const read = (origin: string) => app.request({ url: '/v1/pets', headers: { origin }, unchecked: true });
    // Projects are read again at each refresh; acme was created as the suite started.
    await eventually(
      async () =>
        (await read('http://acme.sites.localhost')).headers['access-control-allow-origin'] !== undefined,
    );
    for (const origin of ['http://acme.sites.localhost', 'https://zoo.sites.localhost:8443']) {
      assert.equal((await read(origin)).headers['access-control-allow-origin'], origin, origin);
    }
    for (const origin of [
      'http://nope.sites.localhost',
      'http://x.acme.sites.localhost',
      'https://evil.example',
      'http://acme.sites.localhost.evil.example',
      'null',
    ]) {
      assert.equal((await read(origin)).headers['access-control-allow-origin'], undefined, origin);
    }
  });

  it('a host that only contains a site name (acme.sites.localhost.evil.example) is not a site', async () => {
    const page = await get(app, 'acme.sites.localhost.evil.example');
    assert.equal(page.status, 302, 'the API host answers: / redirects to its own /docs');
    assert.equal(page.headers.location, '/docs');
    assert.doesNotMatch(page.body, /Acme/);
  });

  it('property: a Host header serves a site only when it names an existing slug under the site domain', async () => {
    const label = fc.stringMatching(/^[a-z0-9-]{0,12}$/);
    const host = fc.oneof(
      fc.tuple(fc.constantFrom('acme', 'zoo', 'nope', ''), label).map(([a, b]) => `${a}${b}.sites.localhost`),
      fc
        .tuple(
          label,
          fc.constantFrom('.sites.localhost', 'sites.localhost', '.sites.localhost.x', '.localhost'),
        )
        .map(([a, b]) => `${a}${b}`),
      fc.string({ maxLength: 40 }).filter((text) => /^[\x21-\x7e]*$/.test(text)),
    );
    await fc.assert(
      fc.asyncProperty(host, async (name) => {
        const page = await get(app, name);
        const served = /petstore-docs-title" content="([^"]*)"/.exec(page.body)?.[1];
        const slug = /^([a-z0-9-]+)\.sites\.localhost\.?(:\d+)?$/i.exec(name)?.[1]?.toLowerCase();
        const expected = slug === 'acme' ? 'Acme &lt;Docs&gt;' : slug === 'zoo' ? 'Project zoo' : undefined;
        assert.equal(served, expected, name);
        assert.ok(page.status < 500, name);
      }),
      { numRuns: 300 },
    );
  });
});

describe('PETSTORE_API_HOST set: every other host that is not a site gets nothing', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp({ hosts: { siteDomain: 'docs.example.test', apiHost: 'api.example.test' } });
    await app.signedInMember('acme');
  });
  after(() => app.close());

  it('the API on its host, the site on its own, 404 elsewhere', async () => {
    assert.equal((await get(app, 'api.example.test', '/v1/pets', app.key)).status, 200);
    assert.equal((await get(app, 'acme.docs.example.test')).status, 200);
    assert.equal((await get(app, 'other.example.test', '/v1/pets', app.key)).status, 404);
    assert.equal((await get(app, 'other.example.test', '/dashboard')).status, 404);
    assert.equal((await get(app, 'acme.sites.localhost')).status, 404);
  });

  it('a docs site links try-it to the API host when PUBLIC_BASE_URL is not set', async () => {
    const page = await get(app, 'acme.docs.example.test:8443');
    assert.match(page.body, /<meta name="petstore-api-origin" content="http:\/\/api.example.test:8443" \/>/);
  });
});
