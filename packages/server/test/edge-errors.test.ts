import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, killAll, runCli, type ServerProcess, startServe } from './blackbox-process.ts';
import { assertErrorAnswer, assertMatchesContract } from './openapi-validator.ts';
import { type RawResponse, rawRequest } from './raw-http.ts';
import { parseLogLine } from './serve-process.ts';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Every client of this suite connects from its own loopback address: its own rate-limit bucket. */
let nextAddress = 10;
const freshAddress = () => `127.0.0.${nextAddress++}`;

describe('answers given before any route: one Error shape over raw sockets', { timeout: 120_000 }, () => {
  const children = new Set<ChildProcess>();
  let dir: string;
  let server: ServerProcess;
  let port: number;
  let key: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-edge-'));
    const env = cleanEnv({
      DATABASE_URL: join(dir, 'petstore.db'),
      LOG_LEVEL: 'info',
      PETSTORE_HEADERS_TIMEOUT_SECONDS: '1',
      PETSTORE_REQUEST_TIMEOUT_SECONDS: '2',
      PETSTORE_MAX_CONNECTIONS_PER_ADDRESS: '4',
      PETSTORE_MAX_CONNECTIONS: '30',
    });
    await runCli(['migrate'], env); // keys create never makes a database
    const created = await runCli(['keys', 'create', '--plan', 'business'], env);
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trimEnd().split('\n').at(-1)!;
    server = await startServe(env, children);
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    killAll(children);
    await rm(dir, { recursive: true, force: true });
  });

  const send = (bytes: string | (string | Buffer)[], options: { gapMs?: number; waitMs?: number } = {}) =>
    rawRequest({ port, send: bytes, localAddress: freshAddress(), ...options });

  /** The `request` log line of an answer, found by its request id (lines are flushed within 250 ms). */
  async function logLineOf(requestId: string): Promise<Record<string, unknown>> {
    const line = await server.waitForLine((candidate) => {
      const entry = parseLogLine(candidate);
      return entry?.msg === 'request' && entry.reqId === requestId;
    }, 3_000);
    return parseLogLine(line)!;
  }

  /** The Error answer, its log line, and whether the rate limiter ran for it. */
  async function expectError(response: RawResponse, status: number, code: string, limited: boolean) {
    const body = assertErrorAnswer(response, status, code);
    assert.equal(response.headers.connection, 'close', 'the connection is closed after the answer');
    assert.ok(response.closed, 'the server closed the connection');
    for (const name of RATE_LIMIT_HEADERS)
      assert.equal(name in response.headers, limited, `${name} present: ${limited}`);
    const logged = await logLineOf(String(body.requestId));
    assert.equal(logged.statusCode, status);
    assert.equal(logged.level, 30, 'an expected refusal is logged at info');
    return body;
  }

  /** Connections the server holds now, by its own gauge (this request's connection included). */
  const openConnections = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^petstore_http_connections (\d+)/m.exec(text)![1]);
  };
  /** Resolves once the server holds `count` more connections than `before`. */
  const accepted = async (before: number, count: number) => {
    const deadline = performance.now() + 5_000;
    while ((await openConnections()) < before + count)
      assert.ok(performance.now() < deadline, `${count} connections accepted within 5 s`);
  };

  const get = (target: string, headers = 'Host: petstore.test\r\n') =>
    `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

  const malformed: [string, string, string][] = [
    ['a request line that is no HTTP', 'GARBAGE\r\n\r\n', 'invalid method'],
    ['a target without a leading slash', get('%2Fv1%2Fpets'), 'url'],
    ['a NUL in the target', 'GET /v1/pets\u0000 HTTP/1.1\r\nHost: x\r\n\r\n', 'url'],
    ['a bare LF line ending', 'GET /v1/pets HTTP/1.1\nHost: x\n\n', 'CRLF'],
    ['a space before a header colon', get('/v1/pets', 'Host : x\r\n'), 'header'],
    ['an obsolete folded header', get('/v1/pets', 'Host: x\r\nX-A: a\r\n b\r\n'), 'whitespace'],
    ['a control character in a header value', get('/v1/pets', 'Host: x\r\nX-A: a\u0001b\r\n'), 'header'],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'Content-Length',
    ],
    [
      'two different Content-Length headers',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef',
      'Content-Length',
    ],
    [
      'a negative Content-Length',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'Content-Length',
    ],
    [
      'a chunk size that is not hexadecimal',
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n`,
      'chunk size',
    ],
    ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', ''],
  ];
  for (const [why, bytes, reason] of malformed) {
    it(`raw request → 400 invalid_request (Error body, request id, log line, connection closed) for ${why}`, async () => {
      const body = await expectError(await send(bytes), 400, 'invalid_request', false);
      assert.match(String(body.message), new RegExp(`^the request is not valid HTTP/1.1.*${reason}`, 'i'));
    });
  }

  it('GET /v1/pets without Host over HTTP/1.1 → 400 invalid_request param Host, rate-limited per address', async () => {
    const body = await expectError(await send('GET /v1/pets HTTP/1.1\r\n\r\n'), 400, 'invalid_request', true);
    assert.equal(body.param, 'Host');
  });

  it('GET /v1/pets with two Host headers → 400 invalid_request param Host', async () => {
    const body = await expectError(
      await send(get('/v1/pets', 'Host: a\r\nHost: b\r\n')),
      400,
      'invalid_request',
      true,
    );
    assert.equal(body.param, 'Host');
  });

  for (const version of ['HTTP/2.0', 'HTTP/0.9']) {
    it(`GET /v1/pets as ${version} → 400 invalid_request naming the version`, async () => {
      const bytes =
        version === 'HTTP/0.9' ? 'GET /v1/pets\r\n\r\n' : `GET /v1/pets ${version}\r\nHost: x\r\n\r\n`;
      const body = await expectError(await send(bytes), 400, 'invalid_request', true);
      assert.match(String(body.message), /is not supported; use HTTP\/1.1/);
    });
  }

  it('POST /v1/pets with Transfer-Encoding: gzip, chunked → 400 invalid_request param Transfer-Encoding', async () => {
    const bytes = 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n';
    const body = await expectError(await send(bytes), 400, 'invalid_request', true);
    assert.equal(body.param, 'Transfer-Encoding');
  });

  it('GET with a header section over 16 KiB → 431 headers_too_large', async () => {
    await expectError(
      await send(get('/v1/pets', `Host: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n`)),
      431,
      'headers_too_large',
      false,
    );
  });

  it('GET with 101 header fields → 431 headers_too_large; 100 fields are served', async () => {
    const fields = (count: number) => Array.from({ length: count }, (_, i) => `X-${i}: a\r\n`).join('');
    await expectError(
      await send(get('/healthz', `Host: x\r\n${fields(100)}`)),
      431,
      'headers_too_large',
      false,
    );
    const served = await rawRequest({
      port,
      send: get('/healthz', `Host: x\r\n${fields(98)}`),
      firstResponseOnly: true,
    });
    assert.equal(served.status, 200);
  });

  it('GET with a query over 8 KiB → 414 uri_too_long, counted against the client address; the target is not echoed', async () => {
    const response = await send(get(`/v1/pets?status=${'a'.repeat(9_000)}`));
    const body = await expectError(response, 414, 'uri_too_long', true);
    assert.ok(response.body.length < 300, 'the long target is not in the answer');
    assert.equal(String(body.message), 'the request target exceeds 8 KiB');
  });

  it('GET /v1/pets/{petId} with an id over 8 KiB → 414 uri_too_long, like any long target', async () => {
    await expectError(await send(get(`/v1/pets/${'1'.repeat(9_000)}`)), 414, 'uri_too_long', true);
  });

  it('GET /v1/pets/{petId} with a 3,000-digit id → 400 invalid_parameter from the route (not a framework 414)', async () => {
    const response = await send(
      get(`/v1/pets/${'1'.repeat(3_000)}`, `Host: x\r\nAuthorization: Bearer ${key}\r\n`),
    );
    assertErrorAnswer(response, 400, 'invalid_parameter');
  });

  it('CONNECT → 400 invalid_request (no proxy here), not a silent close', async () => {
    await expectError(
      await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      400,
      'invalid_request',
      false,
    );
  });

  it('a request whose headers do not finish within PETSTORE_HEADERS_TIMEOUT_SECONDS=1 → 408 request_timeout within 2.5 s', async () => {
    const parts = ['GET /v1/pets HTTP/1.1\r\n', ...Array.from({ length: 10 }, () => 'X-Slow: 1\r\n')];
    const response = await send(parts, { gapMs: 400, waitMs: 6_000 });
    await expectError(response, 408, 'request_timeout', false);
    assert.ok(response.elapsedMs < 2_500, `answered after ${Math.round(response.elapsedMs)} ms`);
  });

  it('a body that does not finish within PETSTORE_REQUEST_TIMEOUT_SECONDS=2 → 408 request_timeout within 3.5 s, logged with its method and path', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const response = await send([head, ...Array.from({ length: 20 }, () => ' ')], {
      gapMs: 300,
      waitMs: 8_000,
    });
    const body = await expectError(response, 408, 'request_timeout', false);
    assert.ok(response.elapsedMs < 3_500, `answered after ${Math.round(response.elapsedMs)} ms`);
    const logged = await logLineOf(String(body.requestId));
    assert.equal(logged.method, 'POST');
    assert.equal(logged.url, '/v1/pets');
  });

  it('a connection that sends nothing → 408 request_timeout and closed after the headers timeout', async () => {
    const response = await send([''], { waitMs: 5_000 });
    await expectError(response, 408, 'request_timeout', false);
    assert.ok(response.elapsedMs < 2_500, `closed after ${Math.round(response.elapsedMs)} ms`);
  });

  it('DELETE /v1/pets with a body but no framing → 405 for the DELETE first, then 400 invalid_request for the stray bytes', async () => {
    const bytes = `DELETE /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n{"name":"Rex","categoryId":1}`;
    const response = await rawRequest({ port, send: bytes, localAddress: freshAddress(), untilClose: true });
    assertErrorAnswer(response, 405, 'method_not_allowed');
    const second = response.raw.slice(response.raw.indexOf('HTTP/1.1', 10));
    assert.match(second, /^HTTP\/1\.1 400 Bad Request/);
    assert.match(second, /"code":"invalid_request"/);
    assert.ok(response.closed);
  });

  it('PUT /v1/pets with a 5 MB chunked body and Connection: close → 405 every time, never a reset', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      outcomes.push(
        await new Promise<string>((resolve) => {
          // The next request starts once this one's connection is closed (the request's 'close'): one
          // connection at a time, as the per-address cap counts a connection still sending its body.
          let status = '';
          const request = httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'PUT',
              path: '/v1/pets',
              headers: {
                authorization: `Bearer ${key}`,
                'content-type': 'application/json',
                connection: 'close',
              },
            },
            (response) => {
              response.resume();
              response.on('end', () => {
                status = String(response.statusCode);
              });
            },
          );
          request.on('error', (error) => {
            status ||= error.message;
          });
          request.on('close', () => resolve(status || 'closed without an answer'));
          request.end(Buffer.alloc(5_000_000, 'a'));
        }),
      );
    }
    assert.deepEqual(outcomes, Array(10).fill('405'));
  });

  it('POST /v1/pets with a chunked body over 64 KiB → 413 payload_too_large, the client reads it', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = `${(70_000).toString(16)}\r\n${' '.repeat(70_000)}\r\n0\r\n\r\n`;
    assertErrorAnswer(await send([head, chunk]), 413, 'payload_too_large');
  });

  it('POST /v1/pets with Expect: 100-continue and Expect: something-else → processed as usual, no bare 417', async () => {
    for (const expect of ['100-continue', 'something-else']) {
      const body = '{"name":"Rex","categoryId":1}';
      const bytes = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nExpect: ${expect}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const response = await rawRequest({ port, send: bytes, firstResponseOnly: true });
      assert.equal(response.status, 201, `Expect: ${expect}`);
    }
  });

  it('GET /v1/pets with the same valid key in two Authorization headers → 401 unauthorized (never "first one wins")', async () => {
    const response = await send(
      get('/v1/pets', `Host: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${key}\r\n`),
    );
    assertErrorAnswer(response, 401, 'unauthorized');
  });

  it('connections beyond PETSTORE_MAX_CONNECTIONS_PER_ADDRESS=4 → 429 too_many_connections, closed at once; other addresses are served', async () => {
    const address = freshAddress();
    const before = await openConnections();
    const holders = Array.from({ length: 4 }, () =>
      rawRequest({ port, send: 'GET /v1/pets HTTP/1.1\r\n', localAddress: address, waitMs: 3_000 }),
    );
    await accepted(before, 4);
    const refused = await rawRequest({ port, send: '', localAddress: address, waitMs: 10_000 });
    assertErrorAnswer(refused, 429, 'too_many_connections');
    assert.equal(refused.headers['retry-after'], '1');
    for (const name of RATE_LIMIT_HEADERS) assert.equal(name in refused.headers, false, `no ${name}`);
    assertMatchesContract({
      method: 'GET',
      path: '/v1/pets',
      status: 429,
      headers: new Headers(refused.headers),
      body: refused.body,
    });
    assert.ok(refused.closed);
    const other = await rawRequest({
      port,
      send: get('/healthz'),
      localAddress: freshAddress(),
      firstResponseOnly: true,
    });
    assert.equal(other.status, 200);
    await Promise.all(holders);
    await server.waitForLine((line) => parseLogLine(line)?.msg === 'connections refused', 3_000);
  });

  it('connections beyond PETSTORE_MAX_CONNECTIONS=30 → 503 service_unavailable with Retry-After, closed at once', async () => {
    const before = await openConnections();
    const holders = Array.from({ length: 32 }, (_, i) =>
      rawRequest({
        port,
        send: 'GET /v1/pets HTTP/1.1\r\n',
        localAddress: `127.0.1.${(i % 10) + 1}`,
        waitMs: 3_000,
      }),
    );
    await accepted(before, 30 - before);
    const refused = await rawRequest({ port, send: '', localAddress: freshAddress(), waitMs: 10_000 });
    assertErrorAnswer(refused, 503, 'service_unavailable');
    assert.equal(refused.headers['retry-after'], '1');
    await Promise.all(holders);
  });

  it('every answer above → no log line carries a raw packet, a header section or the key', () => {
    const all = server.lines.join('\n');
    assert.equal(all.includes(key), false);
    assert.doesNotMatch(all, /rawPacket|authorization|X-Slow|Bearer/i);
  });
});
