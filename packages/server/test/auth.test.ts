import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateKey } from '../src/auth/keys.ts';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { openStoreAt } from '../src/features/store.ts';

interface ErrorJson {
  code: string;
  message: string;
  status: bigint;
  param?: string;
}

const OPERATIONS = [
  { name: 'listPets', method: 'GET', url: '/v1/pets' },
  { name: 'createPet', method: 'POST', url: '/v1/pets', body: { name: 'Rex', categoryId: 1 } },
  { name: 'getPet', method: 'GET', url: '/v1/pets/1' },
  { name: 'listStoreOrders', method: 'GET', url: '/v1/store/orders' },
] as const;

describe('authentication', () => {
  let app: TestApp;
  const credentials: [string, () => Promise<string | undefined>][] = [];
  let message: string | undefined;

  before(async () => {
    app = await makeTestApp();
    const revoked = await app.createKey('pro');
    await app.storage.keys.revoke(revoked.id, app.clock.now());
    const expired = await app.createKey('pro', { expiresAt: app.clock.now() - 1 });
    const expiring = await app.createKey('pro', { expiresAt: app.clock.now() });
    const live = generateKey('live');
    await app.storage.keys.create({
      id: live.id,
      digest: live.digest,
      plan: 'business',
      perMinute: null,
      perDay: null,
      label: null,
      environment: 'live',
      createdAt: app.clock.now(),
      expiresAt: null,
    });
    credentials.push(
      ['the Authorization header is missing', async () => undefined],
      ['the scheme is Basic', async () => `Basic ${Buffer.from(`${app.key}:x`).toString('base64')}`],
      ['the Bearer token is missing', async () => 'Bearer'],
      ['the Bearer token is blank', async () => 'Bearer    '],
      ['the token is malformed', async () => 'Bearer not-a-key'],
      ['the token has the key format but the wrong length', async () => `Bearer ${app.key}x`],
      ['the key is sent without a scheme', async () => app.key],
      ['two tokens are sent', async () => `Bearer ${app.key} ${app.key}`],
      ['the key is well-formed but unknown', async () => `Bearer ${generateKey('test').secret}`],
      ['the key is revoked', async () => `Bearer ${revoked.secret}`],
      ['the key expired', async () => `Bearer ${expired.secret}`],
      ['the key expires at this very instant', async () => `Bearer ${expiring.secret}`],
      ['the key is a ps_live_ key on a test-environment server', async () => `Bearer ${live.secret}`],
    );
  });
  after(() => app.close());

  const send = (operation: (typeof OPERATIONS)[number], authorization: string | undefined) =>
    app.request({
      method: operation.method,
      url: operation.url,
      key: null,
      headers: authorization === undefined ? {} : { authorization },
      body: 'body' in operation ? operation.body : undefined,
    });

  function assertUnauthorized(response: TestResponse, what: string): void {
    assert.equal(response.status, 401, `${what}: ${response.body}`);
    assert.equal(response.headers['www-authenticate'], 'Bearer');
    const error = response.json() as ErrorJson;
    assert.equal(error.code, 'unauthorized');
    assert.equal(error.param, undefined);
    message ??= error.message;
    assert.equal(error.message, message, `${what}: one message for every failure`);
  }

  for (const operation of OPERATIONS) {
    it(`${operation.method} ${operation.url} → 401 unauthorized with WWW-Authenticate: Bearer for every bad credential`, async () => {
      const pets = await app.storage.pets.count();
      for (const [why, credential] of credentials) {
        assertUnauthorized(await send(operation, await credential()), `${operation.name} when ${why}`);
      }
      assert.equal(await app.storage.pets.count(), pets, 'no pet was created without a valid key');
      app.clock.advance(60_000);
    });
  }

  it('POST /v1/pets → 401 (not 400, 413 or 415) when an invalid request is sent without a key', async () => {
    const requests = [
      { body: '{' },
      { body: 'x', headers: { 'content-type': 'text/plain' } },
      { body: JSON.stringify({ pad: 'x'.repeat(70_000) }) },
    ];
    for (const request of requests) {
      const response = await app.request({ method: 'POST', url: '/v1/pets', key: null, ...request });
      assertUnauthorized(response, request.body.slice(0, 10));
    }
  });

  it('GET /v1/pets → 401 (not 400) when invalid parameters are sent without a key', async () => {
    assertUnauthorized(await app.request({ url: '/v1/pets?limit=0&bogus=1', key: null }), 'list');
    assertUnauthorized(await app.request({ url: '/v1/pets/abc', key: null }), 'get');
  });

  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    it(`GET /v1/pets → 200 when a valid key is sent with the scheme written ${scheme}`, async () => {
      const response = await app.request({
        url: '/v1/pets',
        headers: { authorization: `${scheme} ${app.key}` },
      });
      assert.equal(response.status, 200);
    });
  }

  it('GET /v1/pets → 200 with a key that expires in the future', async () => {
    const key = await app.createKey('free', { expiresAt: app.clock.now() + 60_000 });
    assert.equal((await app.request({ url: '/v1/pets', key: key.secret })).status, 200);
  });

  it('GET /v1/pets → 401 at the next request when a key in use is revoked through the same storage', async () => {
    const key = await app.createKey('pro');
    assert.equal((await app.request({ url: '/v1/pets', key: key.secret })).status, 200);
    await app.storage.keys.revoke(key.id, app.clock.now());
    assert.equal((await app.request({ url: '/v1/pets', key: key.secret })).status, 401);
  });

  it('GET /v1/pets → 401 at the next request when a key in use is revoked by another process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-auth-'));
    const file = join(dir, 'petstore.db');
    const served = await makeTestApp({ storage: await openStoreAt(file) });
    const operator = await openStoreAt(file);
    try {
      const key = await served.createKey('pro');
      assert.equal((await served.request({ url: '/v1/pets', key: key.secret })).status, 200);
      assert.equal(await operator.keys.revoke(key.id, served.clock.now()), true);
      const response = await served.request({ url: '/v1/pets', key: key.secret });
      assert.equal(response.status, 401);
      assert.equal((await served.request({ url: '/v1/pets' })).status, 200, 'other keys keep working');
    } finally {
      await operator.close();
      await served.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('GET /v1/store/orders → 501 not_implemented with a valid key', async () => {
    const response = await app.request({ url: '/v1/store/orders' });
    assert.equal(response.status, 501);
    assert.equal((response.json() as ErrorJson).code, 'not_implemented');
  });

  it('GET /v1/openapi.json → 200 without a key, counted in the public budget of the client address', async () => {
    const response = await app.request({ url: '/v1/openapi.json', key: null });
    assert.equal(response.status, 200);
    assert.equal((response.json() as { openapi: string }).openapi, '3.1.0');
    assert.equal(response.headers['x-ratelimit-limit'], '1200');
    const withBadKey = await app.request({ url: '/v1/openapi.json', key: 'nonsense' });
    assert.equal(withBadKey.status, 200);
  });

  it('GET /healthz → 200 without a key', async () => {
    const response = await app.request({ url: '/healthz', key: null });
    assert.equal(response.status, 200);
  });

  it("GET /v1/pets → the key's last use is recorded when the app flushes; a refused key records none", async () => {
    const served = await makeTestApp();
    try {
      const used = await served.createKey('pro');
      const unused = await served.createKey('pro');
      assert.equal((await served.request({ url: '/v1/pets', key: used.secret })).status, 200);
      await served.storage.keys.revoke(unused.id, served.clock.now());
      assert.equal((await served.request({ url: '/v1/pets', key: unused.secret })).status, 401);
      await served.app.close();
      assert.equal((await served.storage.keys.get(used.id))?.lastUsedAt, served.clock.now());
      assert.equal((await served.storage.keys.get(unused.id))?.lastUsedAt, null);
    } finally {
      await served.close();
    }
  });
});
