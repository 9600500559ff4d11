import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';
import { assertUnknownRouteResponse } from './openapi-validator.ts';

/** A request id the service made: a UUIDv7 (time-ordered; see http/request-ids.ts). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('routing', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  /** A request to something that is no operation of the contract, checked as an unknown route. */
  async function unknownRoute(method: string, url: string) {
    const response = await app.request({ method, url, unchecked: true });
    assertUnknownRouteResponse({ method, path: url, ...response });
    return response;
  }

  for (const url of [
    '/nope',
    '/v1/categories',
    '/v1/categories/1',
    '/v1/store/orders/1',
    '/v1/pets/1/tags',
    '/V1/pets',
    '/v1',
  ]) {
    it(`GET ${url} → 404 not_found Error body when no route has this path`, async () => {
      const response = await unknownRoute('GET', url);
      assert.match(response.headers['content-type']!, /^application\/json/);
    });
  }

  it('GET / → 302 to /docs, without a key, counted in the public budget of the address', async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await app.request({ method, url: '/', key: null, unchecked: true });
      assert.equal(response.status, 302, method);
      assert.equal(response.headers.location, '/docs');
      assert.equal(response.headers['x-ratelimit-limit'], '1200');
    }
    const post = await app.request({ method: 'POST', url: '/', key: null, unchecked: true });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
  });

  it('GET /v1/categories → 401 (not 404) without a key: /v1 is authenticated before routing', async () => {
    const response = await app.request({ url: '/v1/categories', key: null, unchecked: true });
    assert.equal(response.status, 401);
    assert.equal(response.headers['www-authenticate'], 'Bearer');
    assert.equal((response.json() as { code: string }).code, 'unauthorized');
  });

  it('GET /nope → 404 without a key: paths outside /v1 are not authenticated', async () => {
    const response = await app.request({ url: '/nope', key: null, unchecked: true });
    assert.equal(response.status, 404);
  });

  const notAllowed: [string, string, string][] = [
    ['DELETE', '/v1/pets', 'GET, POST, HEAD, OPTIONS'],
    ['PUT', '/v1/pets', 'GET, POST, HEAD, OPTIONS'],
    ['PATCH', '/v1/pets', 'GET, POST, HEAD, OPTIONS'],
    ['PUT', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/store/orders', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/v1/openapi.json', 'GET, HEAD, OPTIONS'],
  ];
  for (const [method, url, allow] of notAllowed) {
    it(`${method} ${url} → 405 method_not_allowed with Allow: ${allow}`, async () => {
      const response = await unknownRoute(method, url);
      assert.equal(response.headers.allow, allow);
    });
  }

  it('PUT, PATCH, DELETE, QUERY of /v1/pets and /v1/pets/1 with a valid NewPet body → 405, OPTIONS → 204, no pet created', async () => {
    const before = await app.storage.pets.count();
    for (const url of ['/v1/pets', '/v1/pets/1']) {
      for (const method of ['PUT', 'PATCH', 'DELETE', 'QUERY', 'OPTIONS']) {
        const response = await app.request({
          method,
          url,
          body: { name: 'Rex', categoryId: 1 },
          unchecked: true,
        });
        assert.equal(response.status, method === 'OPTIONS' ? 204 : 405, `${method} ${url}`);
      }
    }
    assert.equal(await app.storage.pets.count(), before);
    // The same body with POST does create, so the count above could have moved.
    await app.request({ method: 'POST', url: '/v1/pets', body: { name: 'Rex', categoryId: 1 } });
    assert.equal(await app.storage.pets.count(), before + 1);
  });

  for (const id of ['abc-123', 'req:1.2_3', 'A'.repeat(128), '0']) {
    it(`GET /v1/pets → X-Request-Id ${id.slice(0, 12)} echoed in the header and in error bodies`, async () => {
      const ok = await app.request({ url: '/v1/pets', headers: { 'x-request-id': id } });
      assert.equal(ok.headers['x-request-id'], id);
      const error = await app.request({ url: '/v1/pets?limit=0', headers: { 'x-request-id': id } });
      assert.equal(error.headers['x-request-id'], id);
      assert.equal((error.json() as { requestId: string }).requestId, id);
    });
  }

  for (const [why, id] of [
    ['empty', ''],
    ['129 characters', 'A'.repeat(129)],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a comma', 'a,b'],
    ['non-ASCII', 'ünï'],
    ['a CRLF-looking escape', 'a%0d%0ab'],
  ]) {
    it(`GET /v1/pets → a generated X-Request-Id when the client's has ${why}`, async () => {
      const response = await app.request({ url: '/v1/pets?limit=0', headers: { 'x-request-id': id! } });
      const sent = response.headers['x-request-id']!;
      assert.match(sent, UUID);
      assert.equal((response.json() as { requestId: string }).requestId, sent);
    });
  }

  it('GET /v1/pets → a new generated X-Request-Id on every request without one', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await app.request({ url: '/v1/pets' })).headers['x-request-id']!);
    assert.equal(ids.size, 5);
    for (const id of ids) assert.match(id, UUID);
  });

  it('GET /nope → the 404 carries an X-Request-Id too', async () => {
    const response = await unknownRoute('GET', '/nope');
    assert.match(response.headers['x-request-id']!, UUID);
  });

  // The router would refuse these before any hook ran; they must still get the catalogue's 400.
  const frameworkErrors = [
    ['/v1/pets/%ZZ', 'the path has invalid percent-encoding'],
    ['/v1/pets/%C3%28', 'the path percent-encodes invalid UTF-8'],
    [`/v1/pets/${'1'.repeat(101)}`, 'petId is longer than 100 characters'],
  ];
  for (const [url, why] of frameworkErrors) {
    it(`GET ${url!.slice(0, 24)} → 400 invalid_parameter Error body when ${why}`, async () => {
      const response = await app.request({ url: url! });
      assert.equal(response.status, 400);
      assert.equal((response.json() as { code: string }).code, 'invalid_parameter');
      assert.ok(response.headers['x-request-id']);
      assert.ok(response.headers['x-ratelimit-limit']);
      assert.ok(response.headers.deprecation);
      const anonymous = await app.request({ url: url!, key: null });
      assert.equal(anonymous.status, 401);
    });
  }
});
