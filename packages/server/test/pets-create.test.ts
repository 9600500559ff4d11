import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { assertMatchesContract } from './openapi-validator.ts';

interface ErrorJson {
  code: string;
  status: number;
  message: string;
  param?: string;
}

const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

describe('POST /v1/pets', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  const post = (body: unknown, headers?: Record<string, string>) =>
    app.request({ method: 'POST', url: '/v1/pets', body, headers });

  /** Sends a request that must be refused, and checks that no pet was created by it. */
  async function refused(send: () => Promise<TestResponse>, status: number, code: string, param?: string) {
    const before = await app.storage.pets.count();
    const response = await send();
    assert.equal(response.status, status, response.body);
    const error = response.json() as ErrorJson;
    assert.equal(error.code, code, response.body);
    if (param !== undefined) assert.equal(error.param, param, response.body);
    assert.equal(await app.storage.pets.count(), before, 'a refused request created a pet');
    return error;
  }

  it('POST /v1/pets → 201 with the Pet and Location; getPet and listPets return it', async () => {
    const response = await post({ name: 'Rex', categoryId: 3, status: 'available' });
    assert.equal(response.status, 201);
    assert.match(response.headers['content-type']!, /^application\/json/);
    const pet = response.json() as { id: bigint };
    assert.deepEqual(pet, { id: pet.id, name: 'Rex', categoryId: 3n, status: 'available' });
    assert.equal(response.headers.location, `/v1/pets/${pet.id}`);
    const fetched = await app.request({ url: response.headers.location! });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.body, response.body);
    const listed = await app.request({ url: '/v1/pets?limit=100' });
    assert.ok((listed.json() as { id: bigint }[]).some((p) => p.id === pet.id));
  });

  it('POST /v1/pets?status=sold → 400 invalid_parameter naming status (the operation declares no query parameter); no pet made', async () => {
    await refused(
      () =>
        app.request({ method: 'POST', url: '/v1/pets?status=sold', body: { name: 'Rex', categoryId: 3 } }),
      400,
      'invalid_parameter',
      'status',
    );
  });

  it('POST /v1/pets → 201 without a status key when status is not given', async () => {
    const response = await post({ name: 'Plain', categoryId: 1 });
    assert.equal(response.status, 201);
    assert.doesNotMatch(response.body, /status/);
    const fetched = await app.request({ url: response.headers.location! });
    assert.doesNotMatch(fetched.body, /status/);
  });

  for (const status of ['available', 'pending', 'sold']) {
    it(`POST /v1/pets → 201 keeping status ${status}`, async () => {
      const response = await post({ name: 'S', categoryId: 1, status });
      assert.equal(response.status, 201);
      assert.equal((response.json() as { status: string }).status, status);
    });
  }

  for (const categoryId of [INT64_MAX, INT64_MIN, '9007199254740993', '0', '-1']) {
    it(`POST /v1/pets → 201 with categoryId ${categoryId} written digit for digit`, async () => {
      const response = await post(`{"name":"Big","categoryId":${categoryId}}`);
      assert.equal(response.status, 201);
      assert.ok(response.body.includes(`"categoryId":${categoryId}}`), response.body);
      const fetched = await app.request({ url: response.headers.location! });
      assert.ok(fetched.body.includes(`"categoryId":${categoryId}}`), fetched.body);
      const listed = await app.request({ url: '/v1/pets?limit=100' });
      assert.ok(listed.body.includes(fetched.body), 'the list carries the same digits');
    });
  }

  for (const categoryId of [
    '9223372036854775808',
    '-9223372036854775809',
    '1e300',
    '99999999999999999999999',
  ]) {
    it(`POST /v1/pets → 400 invalid_body param categoryId when categoryId=${categoryId} is out of range`, async () => {
      await refused(
        () => post(`{"name":"Big","categoryId":${categoryId}}`),
        400,
        'invalid_body',
        'categoryId',
      );
    });
  }

  for (const categoryId of ['"12"', '1.5', 'true', 'null', '[]', '{}', '-0.5']) {
    it(`POST /v1/pets → 400 invalid_body param categoryId when categoryId=${categoryId}`, async () => {
      await refused(
        () => post(`{"name":"Rex","categoryId":${categoryId}}`),
        400,
        'invalid_body',
        'categoryId',
      );
    });
  }

  it('POST /v1/pets → 400 invalid_body naming name when name is missing', async () => {
    const error = await refused(() => post({ categoryId: 1 }), 400, 'invalid_body', 'name');
    assert.match(error.message, /name/);
  });

  it('POST /v1/pets → 400 invalid_body naming categoryId when categoryId is missing', async () => {
    const error = await refused(() => post({ name: 'Rex' }), 400, 'invalid_body', 'categoryId');
    assert.match(error.message, /categoryId/);
  });

  it('POST /v1/pets → 400 invalid_body when the body is an empty object', async () => {
    await refused(() => post({}), 400, 'invalid_body');
  });

  const badNames: [string, unknown][] = [
    ['empty', ''],
    ['only spaces', '   '],
    ['only a tab and newline', '\t\n'],
    ['a NUL character', 'a\u0000b'],
    ['an escape character', 'a\u001bb'],
    ['a DEL character', 'a\u007fb'],
    ['a C1 control character', 'a\u0085b'],
    ['a lone UTF-16 surrogate', 'a\ud800b'],
    ['only a no-break space', '\u00a0'],
    ['201 characters', 'x'.repeat(201)],
    ['201 emoji', '🐈'.repeat(201)],
    ['a number', 42],
    ['null', null],
    ['an array', ['Rex']],
  ];
  for (const [why, name] of badNames) {
    it(`POST /v1/pets → 400 invalid_body param name when name is ${why}`, async () => {
      await refused(() => post({ name, categoryId: 1 }), 400, 'invalid_body', 'name');
    });
  }

  const goodNames: [string, string][] = [
    ['200 characters', 'x'.repeat(200)],
    ['200 astral emoji (400 UTF-16 units)', '🐈'.repeat(200)],
    ['one character', 'x'],
    ['inner spaces and accents', ' Café  Noël '],
    ['quotes and backslashes', 'a "b" \\ c </script>'],
  ];
  for (const [why, name] of goodNames) {
    it(`POST /v1/pets → 201 keeping name exactly when it has ${why}`, async () => {
      const response = await post({ name, categoryId: 1 });
      assert.equal(response.status, 201, response.body);
      assert.equal((response.json() as { name: string }).name, name);
      const fetched = await app.request({ url: response.headers.location! });
      assert.equal((fetched.json() as { name: string }).name, name);
    });
  }

  for (const field of ['id', 'tags', 'Name', '__proto__', 'constructor']) {
    it(`POST /v1/pets → 400 invalid_body naming the unknown field ${field}`, async () => {
      const body = `{"name":"Rex","categoryId":1,${JSON.stringify(field)}:1}`;
      const error = await refused(() => post(body), 400, 'invalid_body', field);
      assert.ok(error.message.includes(field), error.message);
    });
  }

  for (const status of ['"unknown"', 'null', '"Available"', '""', '1']) {
    it(`POST /v1/pets → 400 invalid_body param status when status=${status}`, async () => {
      const body = `{"name":"Rex","categoryId":1,"status":${status}}`;
      await refused(() => post(body), 400, 'invalid_body', 'status');
    });
  }

  for (const body of ['[]', '"x"', 'null', '42', 'true', '[{"name":"Rex","categoryId":1}]']) {
    it(`POST /v1/pets → 400 invalid_body when the body is ${body}`, async () => {
      await refused(() => post(body), 400, 'invalid_body');
    });
  }

  for (const body of ['{', '{"name":"Rex",}', "{'name':'Rex'}", '{"name":"Rex","categoryId":1} x', 'NaN']) {
    it(`POST /v1/pets → 400 invalid_json when the body is ${JSON.stringify(body)}`, async () => {
      await refused(() => post(body), 400, 'invalid_json');
    });
  }

  it('POST /v1/pets → 400 when the body is empty with Content-Type application/json', async () => {
    await refused(() => post('', { 'content-type': 'application/json' }), 400, 'invalid_json');
  });

  it('POST /v1/pets → 400 invalid_body when there is no body and no Content-Type', async () => {
    await refused(() => app.request({ method: 'POST', url: '/v1/pets' }), 400, 'invalid_body');
  });

  it('POST /v1/pets → 400 invalid_body when there is no body, no Content-Type and Content-Length: 0', async () => {
    const send = () => app.request({ method: 'POST', url: '/v1/pets', headers: { 'content-length': '0' } });
    await refused(send, 400, 'invalid_body');
  });

  for (const encoding of ['gzip', 'br', 'deflate']) {
    it(`POST /v1/pets → 415 unsupported_media_type with Accept-Encoding: identity when Content-Encoding is ${encoding}`, async () => {
      const send = () =>
        app.request({
          method: 'POST',
          url: '/v1/pets',
          headers: { 'content-encoding': encoding },
          body: { name: 'Rex', categoryId: 1 },
        });
      await refused(send, 415, 'unsupported_media_type', 'Content-Encoding');
      assert.equal((await send()).headers['accept-encoding'], 'identity');
    });
  }

  it('POST /v1/pets → 201 when Content-Encoding is identity', async () => {
    const response = await app.request({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-encoding': 'identity' },
      body: { name: 'Rex', categoryId: 1 },
    });
    assert.equal(response.status, 201);
  });

  it('POST /v1/pets → 400 invalid_body naming the field when a field is given twice (never "last one wins")', async () => {
    const send = () =>
      app.request({ method: 'POST', url: '/v1/pets', body: '{"name":"Rex","categoryId":1,"name":"Max"}' });
    await refused(send, 400, 'invalid_body', 'name');
  });

  it('POST /v1/pets → 400 invalid_json when the body starts with a byte order mark', async () => {
    const send = () =>
      app.request({ method: 'POST', url: '/v1/pets', body: '\ufeff{"name":"Rex","categoryId":1}' });
    await refused(send, 400, 'invalid_json');
  });

  it('POST /v1/pets → 400 invalid_json "nests too deeply" for 10,000 nested arrays', async () => {
    const send = () =>
      app.request({ method: 'POST', url: '/v1/pets', body: `${'['.repeat(10_000)}${']'.repeat(10_000)}` });
    const error = await refused(send, 400, 'invalid_json');
    assert.match(error.message, /nests too deeply/);
  });

  it('POST /v1/pets → 400 invalid_json when the body is not valid UTF-8', async () => {
    const send = async (): Promise<TestResponse> => {
      const payload = Buffer.from('{"name":"\xff\xfe","categoryId":1}', 'latin1');
      const headers = { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' };
      const response = await app.app.inject({ method: 'POST', url: '/v1/pets', headers, payload });
      const result = { status: response.statusCode, headers: response.headers, body: response.body };
      assertMatchesContract({ method: 'POST', path: '/v1/pets', ...result });
      return {
        ...result,
        headers: result.headers as Record<string, string>,
        json: () => JSON.parse(response.body),
      };
    };
    await refused(send, 400, 'invalid_json');
  });

  const otherTypes = [
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonx',
    'multipart/form-data',
  ];
  for (const type of [
    ...otherTypes,
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
  ]) {
    it(`POST /v1/pets → 415 unsupported_media_type when Content-Type is ${type}`, async () => {
      const send = () => post('{"name":"Rex","categoryId":1}', { 'content-type': type });
      await refused(send, 415, 'unsupported_media_type');
    });
  }

  for (const type of [
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON',
  ]) {
    it(`POST /v1/pets → 201 when Content-Type is ${type}`, async () => {
      const response = await post('{"name":"Rex","categoryId":1}', { 'content-type': type });
      assert.equal(response.status, 201, response.body);
    });
  }

  it('POST /v1/pets → 413 payload_too_large when the body is over 64 KiB', async () => {
    const body = JSON.stringify({ name: 'Rex', categoryId: 1, pad: 'x'.repeat(64 * 1024) });
    await refused(() => post(body), 413, 'payload_too_large');
  });

  it('POST /v1/pets → 400 (not 413) when a 64 KiB body is refused for its content', async () => {
    const name = 'x'.repeat(64 * 1024 - '{"name":"","categoryId":1}'.length);
    const body = `{"name":"${name}","categoryId":1}`;
    assert.equal(Buffer.byteLength(body), 64 * 1024);
    await refused(() => post(body), 400, 'invalid_body', 'name');
  });

  it('POST /v1/pets → each created pet gets a new, larger id', async () => {
    const first = (await post({ name: 'A', categoryId: 1 })).json() as { id: bigint };
    const second = (await post({ name: 'A', categoryId: 1 })).json() as { id: bigint };
    assert.ok(second.id > first.id);
  });
});
