import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { generateKey } from '../src/auth/keys.ts';
import { createRateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import { FakeClock } from '../src/time/clock.ts';
import { assertMatchesContract } from './openapi-validator.ts';

/**
 * The app with a pino logger at `trace` (everything it would ever log) writing into `lines`. No redaction
 * is configured here: what the app logs must be free of secrets by itself. getPet of id 500 throws, so
 * an unexpected failure (500) and its log line can be observed.
 */
async function loggedApp(lines: string[], logSample?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-logging-'));
  const storage = await openStoreAt(join(dir, 'petstore.db'));
  await storage.migrate();
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const limiter = createRateLimiter({ store: createMemoryStore(), clock });
  const getPet: Store['pets']['get'] = async (id) => {
    if (id === 500n) throw new Error('database exploded at /var/lib/petstore/secret-path');
    return storage.pets.get(id);
  };
  const failing = new Proxy(storage, {
    get(target, name) {
      if (name === 'pets') return { ...target.pets, get: getPet };
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const app = buildApp({
    storage: failing,
    limiter,
    clock,
    keyEnvironment: 'test',
    logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    logSample,
  });
  await app.ready();
  const { secret, id, digest } = generateKey('test');
  await storage.keys.create({
    id,
    digest,
    plan: 'business',
    perMinute: null,
    perDay: null,
    label: null,
    environment: 'test',
    createdAt: clock.now(),
    expiresAt: null,
  });
  const close = async () => {
    await app.close();
    await limiter.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { app, secret, keyId: id, close };
}

async function send(
  app: FastifyInstance,
  method: string,
  url: string,
  authorization?: string,
  body?: string,
) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.inject({ method: method as 'GET', url, headers, payload: body });
  assertMatchesContract({
    method,
    path: url,
    status: response.statusCode,
    headers: response.headers as Record<string, string>,
    body: response.body,
  });
  return response;
}

describe('request logging', () => {
  const lines: string[] = [];
  let fixture: Awaited<ReturnType<typeof loggedApp>>;
  const unknownKey = generateKey('test').secret;
  const garbageToken = 'my-very-secret-token-0123456789';

  before(async () => {
    fixture = await loggedApp(lines);
    const { app, secret } = fixture;
    const requests: [string, string, string | undefined, string?][] = [
      ['GET', '/v1/pets', `Bearer ${secret}`],
      ['POST', '/v1/pets', `Bearer ${secret}`, '{"name":"Rex","categoryId":1}'],
      ['POST', '/v1/pets', `Bearer ${secret}`, '{"name":'],
      ['GET', '/v1/pets/1', `Bearer ${secret}`],
      ['GET', '/v1/pets/500', `Bearer ${secret}`],
      ['GET', '/v1/pets', `Bearer ${unknownKey}`],
      ['GET', '/v1/pets', `Bearer ${garbageToken}`],
      ['GET', '/v1/pets/1', `Basic ${Buffer.from(`user:${garbageToken}`).toString('base64')}`],
      ['GET', '/v1/pets', undefined],
    ];
    for (const [method, url, authorization, body] of requests)
      await send(app, method, url, authorization, body);
  });
  after(() => fixture.close());

  it('every /v1 request → one JSON log line with its reqId, method, url and status', async () => {
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = records.filter((record) => record.msg === 'request');
    assert.equal(requests.length, 9);
    for (const record of requests) {
      assert.equal(typeof record.reqId, 'string');
      assert.ok((record.reqId as string).length > 0);
      assert.equal(typeof record.method, 'string');
      assert.match(record.url as string, /^\/v1\/pets/);
      assert.equal(typeof record.statusCode, 'number');
    }
    assert.deepEqual(
      requests.map((record) => record.statusCode),
      [200, 201, 400, 200, 500, 401, 401, 401, 401],
    );
    assert.equal(new Set(requests.map((record) => record.reqId)).size, 9, 'one reqId per request');
    assert.equal(requests[0]!.keyId, fixture.keyId, 'the public key id is logged for a valid key');
  });

  it('every /v1 request → no API key secret and no Authorization header in any log line, for 401s and 500s too', async () => {
    const all = lines.join('\n');
    for (const secret of [
      fixture.secret,
      unknownKey,
      garbageToken,
      Buffer.from(`user:${garbageToken}`).toString('base64'),
    ]) {
      assert.equal(all.includes(secret), false, 'a secret was logged');
    }
    assert.doesNotMatch(all, /authorization/i);
    assert.doesNotMatch(all, /Bearer /);
  });

  it('GET /v1/pets/{petId} → 500 logged with its error under the response requestId; the body holds no internals', async () => {
    const response = await send(fixture.app, 'GET', '/v1/pets/500', `Bearer ${fixture.secret}`);
    assert.equal(response.statusCode, 500);
    const body = JSON.parse(response.body) as { code: string; message: string; requestId: string };
    assert.equal(body.code, 'internal_error');
    assert.doesNotMatch(response.body, /exploded|secret-path|Error:/);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const failure = records.find(
      (record) => record.msg === 'request failed' && record.reqId === body.requestId,
    );
    assert.ok(failure, 'the failure is logged under the request id');
    assert.match(JSON.stringify(failure.err), /exploded/);
    assert.equal(response.headers['x-request-id'], body.requestId);
  });

  it('GET /v1/store/orders → 501 and 4xx answers → their request line at info, no error line, no stack', async () => {
    const answers = [
      await send(fixture.app, 'GET', '/v1/store/orders', `Bearer ${fixture.secret}`),
      await send(fixture.app, 'GET', '/v1/pets?limit=0', `Bearer ${fixture.secret}`),
      await send(fixture.app, 'POST', '/v1/pets', `Bearer ${fixture.secret}`, '{"name":'),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      [501, 400, 400],
    );
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const answer of answers) {
      const requestId = (JSON.parse(answer.body) as { requestId: string }).requestId;
      const own = records.filter((record) => record.reqId === requestId);
      assert.deepEqual(
        own.map((record) => [record.msg, record.level]),
        [['request', 30]],
      );
      assert.doesNotMatch(JSON.stringify(own), /stack/);
    }
  });

  it('GET /v1/pets?api_key=<key> → 400, and the key is redacted from the logged url by name and by shape', async () => {
    const response = await send(fixture.app, 'GET', `/v1/pets?api_key=${fixture.secret}`, undefined);
    assert.equal(response.statusCode, 401);
    const other = await send(fixture.app, 'GET', `/v1/pets?q=${fixture.secret}`, `Bearer ${fixture.secret}`);
    assert.equal(other.statusCode, 400);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const urls = records.filter((record) => record.msg === 'request').map((record) => record.url);
    assert.ok(urls.includes('/v1/pets?api_key=[redacted]'));
    assert.ok(urls.includes('/v1/pets?q=[redacted]'));
    assert.equal(lines.join('\n').includes(fixture.secret), false);
  });

  it('GET /v1/pets with a key as X-Request-Id → a new request id: a secret is never taken as one', async () => {
    const response = await fixture.app.inject({
      url: '/v1/pets',
      headers: { 'x-request-id': fixture.secret },
    });
    assert.equal(response.statusCode, 401);
    assert.notEqual(response.headers['x-request-id'], fixture.secret);
    assert.equal(lines.join('\n').includes(fixture.secret), false);
  });

  it('GET /v1/pets → the client X-Request-Id is the reqId of its log line', async () => {
    const response = await fixture.app.inject({
      url: '/v1/pets',
      headers: { authorization: `Bearer ${fixture.secret}`, 'x-request-id': 'trace-me-42' },
    });
    assert.equal(response.statusCode, 200);
    const record = lines.map((line) => JSON.parse(line)).find((r) => r.reqId === 'trace-me-42');
    assert.equal(record?.msg, 'request');
  });
});

describe('request logging with LOG_SAMPLE', () => {
  it('LOG_SAMPLE=2 → the line of every other answer below 400, and of every 4xx', async () => {
    const lines: string[] = [];
    const { app, secret, close } = await loggedApp(lines, 2);
    try {
      for (const url of ['/v1/pets', '/v1/pets', '/v1/pets/999999', '/v1/pets', '/v1/pets'])
        await send(app, 'GET', url, `Bearer ${secret}`);
      const requests = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((record) => record.msg === 'request');
      assert.deepEqual(
        requests.map((record) => record.statusCode),
        [200, 404, 200],
      );
    } finally {
      await close();
    }
  });
});
