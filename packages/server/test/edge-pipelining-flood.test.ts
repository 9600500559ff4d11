import assert from 'node:assert/strict';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_WAITING_REQUESTS, READ_SLICE_BYTES } from '../src/http/limits.ts';
import { readsDirectly } from '../src/http/read-slices.ts';
import { turnsOf } from '../src/http/turns.ts';
import { closePair, type EdgePair, listeningPair } from './edge-pair.ts';
import { eventually } from './eventually.ts';
import { rawExchange } from './raw-http.ts';

/**
 * Pipelining floods over real sockets, on a server with the API's lane and on one without it: a
 * connection that sends requests without end and never reads its answers is no longer read once
 * MAX_WAITING_REQUESTS wait for their turn (or its answers are not read), as Node's own server stops
 * reading; other clients are answered meanwhile; closing it drops what waited; the timeouts still end it.
 */

/** One read of a socket brings Node at most 64 KiB (libuv's buffer); the parser gets a slice at a time. */
const READ_BYTES = 64 * 1024;
const CONTRACT = 'GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n';
const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
/** The most that may ever wait on one connection: the bound, and what the slice that reached it held. */
const mostWaiting = (request: string) =>
  MAX_WAITING_REQUESTS + Math.ceil(READ_SLICE_BYTES / Buffer.byteLength(request));

const listing = (key: string) =>
  `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`;
const list = (key: string) => listing(key).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n');

/** Answers kept per connection by watchServer: the latest ones. */
const RECENT = 8;

/** The server's side of each connection, by the client's port, the requests emitted on it and the latest answers. */
function watchServer(server: Server) {
  const sockets = new Map<number, Socket>();
  const emitted = new Map<Socket, number>();
  const recent = new WeakMap<Socket, ServerResponse[]>();
  server.on('connection', (socket: Socket) => sockets.set(socket.remotePort!, socket));
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    emitted.set(request.socket, (emitted.get(request.socket) ?? 0) + 1);
    const answers = recent.get(request.socket) ?? [];
    answers.push(response);
    if (answers.length > RECENT) answers.shift();
    recent.set(request.socket, answers);
  });
  return {
    async of(client: Socket): Promise<Socket> {
      await eventually(async () => sockets.has(client.localPort!));
      return sockets.get(client.localPort!)!;
    },
    emitted: (socket: Socket) => emitted.get(socket) ?? 0,
    recent: (socket: Socket) => recent.get(socket) ?? [],
  };
}

/** A pair of listening servers, with and without the lane, each watched. */
async function watchedPair(options?: Parameters<typeof listeningPair>[0]) {
  const pair = await listeningPair(options);
  const watched = {
    lane: watchServer(pair.lane.app.server),
    framework: watchServer(pair.framework.app.server),
  };
  return { pair, watched };
}

/** Connects, writes `bytes` in pieces of the sizes given (the last one repeated), and never reads. */
function flood(port: number, bytes: Buffer, pieces: number[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const client = net.connect({ host: '127.0.0.1', port }, () => {
      client.pause();
      let offset = 0;
      for (let i = 0; offset < bytes.length; i++) {
        const size = pieces[Math.min(i, pieces.length - 1)]!;
        client.write(bytes.subarray(offset, offset + size));
        offset += size;
      }
      resolve(client);
    });
    client.on('error', () => {});
    client.once('error', reject);
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

/** Sizes of the pieces a client writes its bytes in: anything from one byte to a few reads' worth. */
const pieces = fc.array(fc.integer({ min: 1, max: 3 * READ_BYTES }), { minLength: 1, maxLength: 40 });

describe('HTTP/1.1 edge over raw sockets: pipelining floods, with and without the lane', () => {
  let pair: EdgePair;
  let watched: Record<'lane' | 'framework', ReturnType<typeof watchServer>>;

  before(async () => {
    ({ pair, watched } = await watchedPair());
  });
  after(() => closePair(pair));

  for (const path of ['lane', 'framework'] as const) {
    it(`${path}: 20,000 pipelined GET /v1/openapi.json on a connection that never reads → it is no longer read, never more than ${MAX_WAITING_REQUESTS} + one slice's requests wait; another client is answered; closing it frees it`, async () => {
      const port = pair.ports[path];
      const total = 20_000;
      const client = await flood(port, Buffer.from(CONTRACT.repeat(total), 'latin1'), [READ_BYTES]);
      const socket = await watched[path].of(client);
      // Held with answers it cannot write: the client reads none, so that lasts.
      await eventually(async () => turnsOf(socket).held && socket.writableLength > 0);
      const emitted = watched[path].emitted(socket);
      assert.ok(emitted < total, `the server stopped reading: ${emitted} of ${total} requests read`);
      assert.ok(turnsOf(socket).mostWaiting <= mostWaiting(CONTRACT), JSON.stringify(turnsOf(socket)));
      assert.ok(turnsOf(socket).waiting > 0);
      const other = await rawExchange({ port, parts: [list(pair.lane.key)] });
      assert.deepEqual(
        other.answers.map((answer) => answer.status),
        [200],
      );
      assert.equal(watched[path].emitted(socket), emitted, 'nothing more was read meanwhile');
      client.destroy();
      await closed(socket);
      const again = await rawExchange({ port, parts: [list(pair.lane.key)] });
      assert.equal(again.answers[0]?.status, 200);
    });

    it(`${path}: GET /healthz pipelined by a client that never reads, in any chunking → never more than ${MAX_WAITING_REQUESTS} + one slice's requests wait`, async () => {
      const port = pair.ports[path];
      await fc.assert(
        fc.asyncProperty(pieces, fc.integer({ min: 1, max: 4_000 }), async (sizes, count) => {
          const client = await flood(port, Buffer.from(HEALTHZ.repeat(count), 'latin1'), sizes);
          const socket = await watched[path].of(client);
          // Until every request was read, or the connection is held with answers it cannot write.
          await eventually(
            async () =>
              watched[path].emitted(socket) === count || (turnsOf(socket).held && socket.writableLength > 0),
          );
          const turns = turnsOf(socket);
          client.destroy();
          await closed(socket);
          assert.ok(turns.mostWaiting <= mostWaiting(HEALTHZ), JSON.stringify(turns));
        }),
        { numRuns: 6 },
      );
    });

    it(`${path}: GET /healthz pipelined by a client that never reads → the requests waiting for their turn share the edge's listeners and come with their bodies ended (no function or stream event of their own)`, async () => {
      const client = await flood(pair.ports[path], Buffer.from(HEALTHZ.repeat(4_000), 'latin1'), [
        READ_BYTES,
      ]);
      const socket = await watched[path].of(client);
      await eventually(async () => turnsOf(socket).held && turnsOf(socket).waiting >= RECENT);
      const waiting = watched[path].recent(socket);
      assert.equal(waiting.length, RECENT);
      assert.ok(
        waiting.every((answer) => answer.socket === null),
        'the latest answers wait for their turn',
      );
      const distinct = (event: string) => new Set(waiting.flatMap((answer) => answer.listeners(event))).size;
      // The edge waits for a turn with one function shared by every waiting answer; Node's own
      // 'finish' listener is one per answer.
      assert.equal(distinct('socket'), 1);
      assert.ok(distinct('finish') <= RECENT + 1, `${distinct('finish')} 'finish' listeners`);
      // Without a body, each request came with its stream already ended: no stream events to run.
      assert.ok(waiting.every((answer) => answer.req.readableEnded));
      client.destroy();
      await closed(socket);
    });

    it(`${path}: GET /v1/pets pipelined ${MAX_WAITING_REQUESTS * 20} times by a client that reads, in any chunking → every one answered 200`, async () => {
      const port = pair.ports[path];
      const count = MAX_WAITING_REQUESTS * 20;
      await fc.assert(
        fc.asyncProperty(pieces, async (sizes) => {
          // A key of its own each time: a Business key takes 1,000 requests a minute.
          const { secret } = await pair.lane.createKey('business');
          const bytes = Buffer.from(listing(secret).repeat(count), 'latin1');
          const parts: Buffer[] = [];
          for (let offset = 0, i = 0; offset < bytes.length; i++) {
            const size = sizes[Math.min(i, sizes.length - 1)]!;
            parts.push(bytes.subarray(offset, offset + size));
            offset += size;
          }
          const { answers } = await rawExchange({ port, parts });
          const statuses = new Map<number, number>();
          for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          assert.deepEqual([...statuses], [[200, count]], answers.find((a) => a.status !== 200)?.body);
        }),
        { numRuns: 4 },
      );
    });
  }
});

describe('HTTP/1.1 edge over raw sockets: a held connection still times out, with and without the lane', () => {
  let pair: EdgePair;
  let watched: Record<'lane' | 'framework', ReturnType<typeof watchServer>>;

  before(async () => {
    ({ pair, watched } = await watchedPair({
      httpLimits: {
        headersTimeoutMs: 1_000,
        requestTimeoutMs: 1_000,
        keepAliveTimeoutMs: 1_000,
        maxConnections: 100,
        maxConnectionsPerAddress: 100,
      },
    }));
  });
  after(() => closePair(pair));

  for (const path of ['lane', 'framework'] as const) {
    for (const [ending, count, tail] of [
      ['after more than it reads', 20_000, ''],
      ['in the middle of a request, all of it read', 1_000, CONTRACT.slice(0, 20)],
    ] as const) {
      it(`${path}: a flood that never reads, ${ending} → held, then closed by the server's timeouts`, async () => {
        const bytes = Buffer.from(CONTRACT.repeat(count) + tail, 'latin1');
        const client = await flood(pair.ports[path], bytes, [READ_BYTES]);
        const socket = await watched[path].of(client);
        await eventually(async () => turnsOf(socket).held || socket.destroyed);
        await closed(socket);
        client.destroy();
      });
    }
  }
});

/**
 * Connects and sends `count` GET /healthz one at a time, each once the answer before it came (a 200,
 * or a 429 once floods from this address drew the anonymous limit).
 */
async function oneAtATime(port: number, count: number): Promise<Socket> {
  const client = net.connect({ host: '127.0.0.1', port });
  await new Promise((resolve) => client.once('connect', resolve));
  let received = '';
  client.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  client.on('error', () => {});
  for (let i = 1; i <= count; i++) {
    client.write(HEALTHZ);
    await eventually(async () => received.split('HTTP/1.1 ').length - 1 === i);
  }
  return client;
}

describe('HTTP/1.1 edge over raw sockets: a connection read Node’s direct way until it pipelines', () => {
  let pair: EdgePair;
  let watched: Record<'lane' | 'framework', ReturnType<typeof watchServer>>;

  before(async () => {
    ({ pair, watched } = await watchedPair());
  });
  after(() => closePair(pair));

  for (const path of ['lane', 'framework'] as const) {
    it(`${path}: requests one at a time → read directly; then a flood that never reads → held, one read's requests at most waiting, and read in slices again`, async () => {
      const client = await oneAtATime(pair.ports[path], 6);
      const socket = await watched[path].of(client);
      assert.equal(readsDirectly(socket), true, 'read directly after requests one at a time');
      client.pause();
      client.write(Buffer.from(HEALTHZ.repeat(20_000), 'latin1'));
      await eventually(async () => turnsOf(socket).held && socket.writableLength > 0);
      assert.equal(readsDirectly(socket), false, 'read in slices once a request waited');
      const mostWaiting = MAX_WAITING_REQUESTS + Math.ceil(READ_BYTES / Buffer.byteLength(HEALTHZ));
      assert.ok(turnsOf(socket).mostWaiting <= mostWaiting, JSON.stringify(turnsOf(socket)));
      client.destroy();
      await closed(socket);
    });

    it(`${path}: requests one at a time, then GET /v1/pets pipelined ${MAX_WAITING_REQUESTS * 20} times by a client that reads, in any chunking → every one answered 200`, async () => {
      const port = pair.ports[path];
      const count = MAX_WAITING_REQUESTS * 20;
      await fc.assert(
        fc.asyncProperty(pieces, fc.integer({ min: 0, max: 8 }), async (sizes, first) => {
          const { secret } = await pair.lane.createKey('business');
          const client = await oneAtATime(port, first);
          let received = Buffer.alloc(0);
          client.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
          const bytes = Buffer.from(listing(secret).repeat(count), 'latin1');
          for (let offset = 0, i = 0; offset < bytes.length; i++) {
            const size = sizes[Math.min(i, sizes.length - 1)]!;
            client.write(bytes.subarray(offset, offset + size));
            offset += size;
          }
          client.end();
          await new Promise((resolve) => client.once('close', resolve));
          const answers = received.toString('latin1').split('HTTP/1.1 ').slice(1);
          const statuses = answers.map((answer) => Number(answer.slice(0, 3)));
          assert.equal(statuses.length, count);
          assert.ok(
            statuses.every((status) => status === 200),
            String(statuses.filter((s) => s !== 200)),
          );
        }),
        { numRuns: 4 },
      );
    });
  }
});
