import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { READ_SLICE_BYTES } from '../src/http/limits.ts';
import { closePair, type EdgePair, listeningPair } from './edge-pair.ts';
import { assertMatchesContract } from './openapi-validator.ts';
import { type RawAnswer, rawExchange } from './raw-http.ts';

/**
 * What the HTTP/1.1 edge promises about a connection, over real sockets and exact bytes, on a server
 * with the API's lane and on one without it (the framework alone): nothing pipelined behind an answer
 * that closes the connection is executed (RFC 9112 §9.6), an ignored `Upgrade` keeps the connection on
 * HTTP/1.1 (RFC 9110 §7.8), `Transfer-Encoding` in HTTP/1.0 closes after the answer (RFC 9112 §6.1), a
 * body that stops coming gets a 408, the asterisk form is for OPTIONS only (RFC 9112 §3.2.4).
 */
const PET = '{"name":"Rex","categoryId":7}';

const create = (key: string, body = PET, extra = '') =>
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const list = (key: string, extra = '') =>
  `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${extra}\r\n`;

function assertClosing(answer: RawAnswer, status: number, code: string) {
  assert.equal(answer.status, status, answer.body);
  assert.equal(answer.headers.connection, 'close');
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(answer.headers['x-request-id'], body.requestId);
}

/** Requests that are answered, then close the connection, each with the key it may spend. */
const CLOSERS: { why: string; bytes: (key: string) => string; status: number; code: string }[] = [
  {
    why: 'a create with Content-Length: 0 (400 invalid_json)',
    bytes: (key) => create(key, ''),
    status: 400,
    code: 'invalid_json',
  },
  {
    why: 'a create whose body is not JSON (400 invalid_json)',
    bytes: (key) => create(key, '{"name":"Rex",'),
    status: 400,
    code: 'invalid_json',
  },
  {
    why: 'a create naming a field twice (400 invalid_body)',
    bytes: (key) => create(key, '{"name":"a","name":"b","categoryId":1}'),
    status: 400,
    code: 'invalid_body',
  },
  {
    why: 'a create with a body over 64 KiB (413 payload_too_large)',
    bytes: (key) => create(key, `{"name":"${'x'.repeat(70_000)}","categoryId":1}`),
    status: 413,
    code: 'payload_too_large',
  },
  {
    why: 'Host: a b (400 invalid_request, refused before any route)',
    bytes: (key) => list(key).replace('Host: x', 'Host: a b'),
    status: 400,
    code: 'invalid_request',
  },
  {
    why: 'GET * (400 invalid_request: the asterisk form is for OPTIONS)',
    bytes: () => 'GET * HTTP/1.1\r\nHost: x\r\n\r\n',
    status: 400,
    code: 'invalid_request',
  },
];

/** What a minute of the key has left, read off a list request on a fresh connection. */
async function remaining(port: number, key: string): Promise<number> {
  const { answers } = await rawExchange({ port, parts: [list(key)] });
  return Number(answers[0]!.headers['x-ratelimit-remaining']);
}

describe('HTTP/1.1 edge over raw sockets: what runs on a connection, with and without the lane', () => {
  let pair: EdgePair;

  before(async () => {
    pair = await listeningPair();
  });
  after(() => closePair(pair));

  for (const path of ['lane', 'framework'] as const) {
    for (const closer of CLOSERS) {
      it(`${path}: ${closer.why} → answered with Connection: close; a create pipelined behind it is not executed: no pet, no quota`, async () => {
        const { secret } = await pair.lane.createKey('free');
        const port = pair.ports[path];
        const before = await pair.lane.storage.pets.count();
        const { answers } = await rawExchange({ port, parts: [closer.bytes(secret) + create(secret)] });
        assert.equal(answers.length, 1, 'one answer, then the close');
        assertClosing(answers[0]!, closer.status, closer.code);
        // The same, the create sent after the closing answer arrived.
        const late = await rawExchange({
          port,
          parts: [closer.bytes(secret), create(secret)],
          afterAnswers: [0, 1],
        });
        assert.equal(late.answers.length, 1);
        assert.equal(await pair.lane.storage.pets.count(), before, 'no pet was written');
        // The Free plan's 60 a minute, less what the two closing requests spent and this check.
        const spent = closer.code === 'invalid_request' ? 0 : 2;
        assert.equal(await remaining(port, secret), 60 - spent - 1, 'no quota spent on the creates');
      });
    }

    it(`${path}: three creates pipelined, then a half-close → three 201s in order, then the close`, async () => {
      const before = await pair.lane.storage.pets.count();
      const key = pair.lane.key;
      const { answers } = await rawExchange({ port: pair.ports[path], parts: [create(key).repeat(3)] });
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [201, 201, 201],
      );
      assert.equal(await pair.lane.storage.pets.count(), before + 3);
    });

    it(`${path}: a create, a create, then bytes that are no HTTP → 201, 201, then 400 invalid_request; nothing executed unanswered`, async () => {
      const before = await pair.lane.storage.pets.count();
      const key = pair.lane.key;
      const { answers } = await rawExchange({
        port: pair.ports[path],
        parts: [create(key) + create(key) + 'GARBAGE\r\n\r\n'],
      });
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [201, 201, 400],
      );
      assertClosing(answers[2]!, 400, 'invalid_request');
      assert.equal(await pair.lane.storage.pets.count(), before + 2);
    });

    it(`${path}: a create with bytes after its declared Content-Length → 201, then 400 invalid_request for the stray bytes`, async () => {
      const before = await pair.lane.storage.pets.count();
      const { answers } = await rawExchange({
        port: pair.ports[path],
        parts: [`${create(pair.lane.key)}xyz`],
      });
      assert.deepEqual(
        answers.map((answer) => [answer.status, answer.headers.connection]),
        [
          [201, 'keep-alive'],
          [400, 'close'],
        ],
      );
      assert.equal(await pair.lane.storage.pets.count(), before + 1);
    });

    for (const connection of ['Upgrade', 'keep-alive, Upgrade']) {
      it(`${path}: GET /v1/pets with Upgrade: websocket and Connection: ${connection} → 200 on HTTP/1.1, and the create pipelined behind it → 201`, async () => {
        const before = await pair.lane.storage.pets.count();
        const key = pair.lane.key;
        const upgrade = list(key, `Upgrade: websocket\r\nConnection: ${connection}\r\n`);
        const { answers } = await rawExchange({ port: pair.ports[path], parts: [upgrade + create(key)] });
        assert.deepEqual(
          answers.map((answer) => [answer.status, answer.headers.connection]),
          [
            [200, 'keep-alive'],
            [201, 'keep-alive'],
          ],
        );
        assert.equal(await pair.lane.storage.pets.count(), before + 1);
      });
    }

    it(`${path}: 30 list requests asking to upgrade, pipelined → 30 answers 200 on HTTP/1.1`, async () => {
      const upgrade = list(pair.lane.key, 'Upgrade: websocket\r\nConnection: Upgrade\r\n');
      const { answers } = await rawExchange({ port: pair.ports[path], parts: [upgrade.repeat(30)] });
      assert.deepEqual(
        answers.map((answer) => answer.status),
        Array(30).fill(200),
      );
    });

    it(`${path}: lists pipelined past a read slice (${READ_SLICE_BYTES} bytes) in one write, some asking to upgrade → every one 200, in order`, async () => {
      const port = pair.ports[path];
      await fc.assert(
        fc.asyncProperty(fc.array(fc.boolean(), { minLength: 30, maxLength: 90 }), async (upgrades) => {
          const { secret } = await pair.lane.createKey('business');
          const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\n';
          const bytes = upgrades.map((asks) => list(secret, asks ? upgrade : '')).join('');
          const { answers } = await rawExchange({ port, parts: [bytes] });
          assert.deepEqual(
            answers.map((answer) => answer.status),
            Array(upgrades.length).fill(200),
          );
        }),
        { numRuns: 6 },
      );
    });

    it(`${path}: lists some of which ask to upgrade, pipelined in any chunking by a client that half-closes after the last → every one 200, in order`, async () => {
      const port = pair.ports[path];
      const requests = fc.array(fc.boolean(), { minLength: 1, maxLength: 60 });
      const pieces = fc.array(fc.integer({ min: 1, max: 3 * READ_SLICE_BYTES }), {
        minLength: 1,
        maxLength: 8,
      });
      await fc.assert(
        fc.asyncProperty(requests, pieces, async (upgrades, sizes) => {
          const { secret } = await pair.lane.createKey('business');
          const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\n';
          const bytes = Buffer.from(
            upgrades.map((asks) => list(secret, asks ? upgrade : '')).join(''),
            'latin1',
          );
          const parts: Buffer[] = [];
          for (let offset = 0, i = 0; offset < bytes.length; i++) {
            const size = sizes[Math.min(i, sizes.length - 1)]!;
            parts.push(bytes.subarray(offset, offset + size));
            offset += size;
          }
          const { answers } = await rawExchange({ port, parts });
          assert.deepEqual(
            answers.map((answer) => answer.status),
            Array(upgrades.length).fill(200),
          );
        }),
        { numRuns: 6 },
      );
    });

    it(`${path}: a create, then a create asking to upgrade, then a list, in two writes → 201, 201, 200`, async () => {
      const before = await pair.lane.storage.pets.count();
      const key = pair.lane.key;
      const upgrading = create(
        key,
        PET,
        'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n',
      );
      const { answers } = await rawExchange({
        port: pair.ports[path],
        parts: [create(key) + upgrading.slice(0, 40), upgrading.slice(40) + list(key)],
      });
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [201, 201, 200],
      );
      assert.equal(await pair.lane.storage.pets.count(), before + 2);
    });

    it(`${path}: POST /v1/pets over HTTP/1.0 with Transfer-Encoding: chunked and keep-alive → 201 with Connection: close; nothing after it runs`, async () => {
      const before = await pair.lane.storage.pets.count();
      const key = pair.lane.key;
      const chunked = `POST /v1/pets HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${PET.length.toString(16)}\r\n${PET}\r\n0\r\n\r\n`;
      const { answers } = await rawExchange({ port: pair.ports[path], parts: [chunked + create(key)] });
      assert.equal(answers.length, 1);
      assert.equal(answers[0]!.status, 201);
      assert.equal(answers[0]!.headers.connection, 'close');
      assert.equal(await pair.lane.storage.pets.count(), before + 1);
    });

    it(`${path}: GET *, POST * and DELETE * → 400 invalid_request (Error body, contract); OPTIONS * is not refused as malformed`, async () => {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const { answers } = await rawExchange({
          port: pair.ports[path],
          parts: [`${method} * HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`],
        });
        assert.equal(answers.length, 1);
        assertClosing(answers[0]!, 400, 'invalid_request');
        assertMatchesContract({
          method: 'GET',
          path: '/v1/pets',
          status: 400,
          headers: new Headers(answers[0]!.headers),
          body: answers[0]!.body,
        });
      }
      const { answers } = await rawExchange({
        port: pair.ports[path],
        parts: ['OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
      });
      assert.notEqual(answers[0]!.status, 400, answers[0]!.body);
    });
  }
});

describe('HTTP/1.1 edge over raw sockets: a body that stops coming, with and without the lane', () => {
  let pair: EdgePair;
  const lines: string[] = [];

  before(async () => {
    pair = await listeningPair({
      logLines: lines,
      httpLimits: {
        headersTimeoutMs: 1_000,
        requestTimeoutMs: 1_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 100,
        maxConnectionsPerAddress: 100,
      },
    });
  });
  after(() => closePair(pair));

  for (const path of ['lane', 'framework'] as const) {
    it(`${path}: an admitted create whose body stops after 10 of 100 bytes → 408 request_timeout (Error body) and a log line naming POST /v1/pets`, async () => {
      const before = await pair.lane.storage.pets.count();
      const head = create(pair.lane.key).replace(
        `Content-Length: ${PET.length}\r\n\r\n${PET}`,
        'Content-Length: 100\r\n\r\n{"name":"R',
      );
      const { answers } = await rawExchange({ port: pair.ports[path], parts: [head], end: false });
      assert.equal(answers.length, 1);
      assertClosing(answers[0]!, 408, 'request_timeout');
      const requestId = JSON.parse(answers[0]!.body).requestId as string;
      const logged = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'request' && line.reqId === requestId);
      assert.ok(logged, 'the 408 has its log line');
      assert.equal(logged.statusCode, 408);
      assert.equal(logged.method, 'POST');
      assert.equal(logged.url, '/v1/pets');
      assert.equal(await pair.lane.storage.pets.count(), before);
    });
  }
});
