import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateKey } from '../src/auth/keys.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { openStoreAt } from '../src/features/store.ts';

const SERVER_MODULE = fileURLToPath(new URL('../src/server.ts', import.meta.url));

interface Answer {
  status: number;
  body: string;
}

function collect(request: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.once('end', () => resolve({ status: response.statusCode!, body }));
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown', () => {
  let dir: string;
  let database: string;
  let key: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-shutdown-'));
    database = join(dir, 'petstore.db');
    const storage = await openStoreAt(database);
    await storage.migrate();
    const { secret, id, digest } = generateKey('test');
    await storage.keys.create({
      ...{ id, digest, plan: 'business', perMinute: null, perDay: null, label: null },
      ...{ environment: 'test', createdAt: Date.now(), expiresAt: null },
    });
    await storage.close();
    key = secret;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('close() → the in-flight POST /v1/pets finishes 201 and is stored, /readyz says 503 meanwhile; keep-alive does not hold the close', async () => {
    const server = await startServer(loadConfig({ PORT: '0', DATABASE_URL: database, LOG_LEVEL: 'silent' }));
    const port = Number(new URL(server.url).port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    assert.equal((await collect(http.get({ port, path: '/healthz', agent }))).status, 200);

    // A raw keep-alive connection: the POST's body arrives only after close() began, and a /readyz is
    // pipelined behind it.
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
    });
    const ended = once(socket, 'close');
    const body = JSON.stringify({ name: 'Drained', categoryId: 7 });
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await pause(100);
    const started = Date.now();
    const closed = server.close();
    await pause(200);
    socket.write(`${body.slice(10)}GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n`);
    await closed;
    await ended;
    assert.ok(Date.now() - started < 3_000, `closed after ${Date.now() - started} ms`);
    agent.destroy();

    const [created, readiness] = received.split(/(?=HTTP\/1\.1 )/);
    assert.match(created!, /^HTTP\/1\.1 201 /);
    assert.match(readiness!, /^HTTP\/1\.1 503 /);
    assert.match(readiness!, /^connection: close\r$/im);
    assert.equal(JSON.parse(readiness!.split('\r\n\r\n')[1]!).message, 'not ready: shutting down');

    await assert.rejects(collect(http.get({ port, path: '/healthz', agent: false })), /ECONNREFUSED/);
    const storage = await openStoreAt(database);
    try {
      const id = BigInt(JSON.parse(created!.split('\r\n\r\n')[1]!).id);
      assert.equal((await storage.pets.get(id))?.name, 'Drained');
    } finally {
      await storage.close();
    }
  });
});

/** A process whose server closes after `closeMs` (never when negative), stopped by closeOnSignals. */
function signalled(closeMs: number, timeoutMs: number) {
  const script = `
    const { closeOnSignals } = await import(${JSON.stringify(SERVER_MODULE)});
    const log = { info() {}, error() {} };
    const close = () => new Promise((resolve) => { if (${closeMs} >= 0) setTimeout(resolve, ${closeMs}); });
    closeOnSignals({ app: { log }, url: '', close }, ${timeoutMs});
    setInterval(() => {}, 1_000);
    process.send('ready');
  `;
  return spawn(process.execPath, ['--input-type=module', '--eval', script], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

describe('closeOnSignals', () => {
  it('SIGTERM twice → the second changes nothing, the process exits 0 once closed', async () => {
    const child = signalled(300, 5_000);
    await once(child, 'message');
    child.kill('SIGTERM');
    await pause(50);
    child.kill('SIGTERM');
    const [code, signal] = await once(child, 'exit');
    assert.deepEqual([code, signal], [0, null]);
  });

  it('SIGTERM → exit 1 when the shutdown hangs past the timeout', async () => {
    const child = signalled(-1, 300);
    await once(child, 'message');
    const started = Date.now();
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.ok(Date.now() - started < 3_000);
  });
});
