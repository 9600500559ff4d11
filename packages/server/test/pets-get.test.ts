import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../src/time/clock.ts';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';

const SUNSET = Date.UTC(2030, 11, 5, 0, 0, 0);

interface ErrorJson {
  code: string;
  param?: string;
}

function assertDeprecationHeaders(response: TestResponse): void {
  assert.match(response.headers.deprecation ?? '', /^@\d+$/);
  const deprecatedAt = Number(response.headers.deprecation!.slice(1)) * 1000;
  assert.ok(deprecatedAt < SUNSET, 'deprecated before the sunset');
  assert.equal(response.headers.sunset, 'Thu, 05 Dec 2030 00:00:00 GMT');
  const link = response.headers.link ?? '';
  assert.match(link, /<[^>]+>; rel="deprecation"/);
  assert.match(link, /<\/v1\/pets>; rel="successor-version"/);
}

describe('GET /v1/pets/{petId}', () => {
  let app: TestApp;
  let id: bigint;
  before(async () => {
    app = await makeTestApp();
    const created = await app.request({
      method: 'POST',
      url: '/v1/pets',
      body: '{"name":"Rex","categoryId":-9223372036854775808,"status":"sold"}',
    });
    id = (created.json() as { id: bigint }).id;
  });
  after(() => app.close());

  it('GET /v1/pets/{petId} → 200 with the Pet, int64 digits intact', async () => {
    const response = await app.request({ url: `/v1/pets/${id}` });
    assert.equal(response.status, 200);
    assert.equal(
      response.body,
      `{"id":${id},"name":"Rex","categoryId":-9223372036854775808,"status":"sold"}`,
    );
    assertDeprecationHeaders(response);
  });

  for (const unknown of ['999999', '0', '-1', '9223372036854775807', '-9223372036854775808']) {
    it(`GET /v1/pets/${unknown} → 404 not_found when no pet has this id`, async () => {
      const response = await app.request({ url: `/v1/pets/${unknown}` });
      assert.equal(response.status, 404);
      assert.equal((response.json() as ErrorJson).code, 'not_found');
      assertDeprecationHeaders(response);
    });
  }

  const invalid = [
    'abc',
    '01',
    '1.0',
    '-0',
    '+1',
    '1e3',
    '0x1',
    '9223372036854775808',
    '-9223372036854775809',
  ];
  // Path segments as sent: percent-encoded ones decode to ' 1', '1 ', '-0' and an Arabic-Indic digit.
  for (const petId of [...invalid, '%201', '1%20', '%2D0', '%D9%A1', '1%2F2']) {
    it(`GET /v1/pets/${petId} → 400 invalid_parameter param petId when petId is not a canonical int64`, async () => {
      const response = await app.request({ url: `/v1/pets/${petId}` });
      assert.equal(response.status, 400, response.body);
      const error = response.json() as ErrorJson;
      assert.equal(error.code, 'invalid_parameter');
      assert.equal(error.param, 'petId');
      assertDeprecationHeaders(response);
    });
  }

  // Through the API's lane, and through the framework (which answers every request with an Origin).
  for (const headers of [{}, { origin: 'https://elsewhere.example' }] as Record<string, string>[]) {
    it(`GET /v1/pets/{petId}?status=sold → 400 invalid_parameter naming status: the operation declares no query parameter${'origin' in headers ? ' (framework)' : ''}`, async () => {
      const response = await app.request({ url: `/v1/pets/${id}?status=sold`, headers });
      assert.equal(response.status, 400, response.body);
      const error = response.json() as ErrorJson;
      assert.deepEqual([error.code, error.param], ['invalid_parameter', 'status']);
      assertDeprecationHeaders(response);
    });
  }

  it('GET /v1/pets/{petId} → 401 with the deprecation headers when the key is missing', async () => {
    const response = await app.request({ url: `/v1/pets/${id}`, key: null });
    assert.equal(response.status, 401);
    assertDeprecationHeaders(response);
  });

  it('GET /v1/pets/{petId} → the other operations carry no deprecation headers', async () => {
    for (const response of [
      await app.request({ url: '/v1/pets' }),
      await app.request({ method: 'POST', url: '/v1/pets', body: { name: 'A', categoryId: 1 } }),
    ]) {
      assert.equal(response.headers.deprecation, undefined);
      assert.equal(response.headers.sunset, undefined);
    }
  });
});

describe('GET /v1/pets/{petId} at its sunset', () => {
  it('GET /v1/pets/{petId} → 200 one millisecond before 2030-12-05T00:00:00Z, 410 gone from that instant', async () => {
    const clock = new FakeClock(SUNSET - 1);
    const app = await makeTestApp({ clock });
    try {
      const pet = await app.storage.pets.create({ name: 'Rex', categoryId: 1n });
      assert.equal(pet.kind, 'created');
      const url = `/v1/pets/${pet.kind === 'created' ? pet.pet.id : 0}`;
      const before = await app.request({ url });
      assert.equal(before.status, 200);
      clock.set(SUNSET);
      for (const path of [url, '/v1/pets/424242', '/v1/pets/abc']) {
        const response = await app.request({ url: path });
        assert.equal(response.status, 410, path);
        assert.equal((response.json() as ErrorJson).code, 'gone');
        assertDeprecationHeaders(response);
      }
      clock.advance(365 * 86_400_000);
      assert.equal((await app.request({ url })).status, 410);
      const list = await app.request({ url: '/v1/pets' });
      assert.equal(list.status, 200, 'the successor keeps working');
      const unauthenticated = await app.request({ url, key: null });
      assert.equal(unauthenticated.status, 401, 'authentication still comes first');
    } finally {
      await app.close();
    }
  });
});
