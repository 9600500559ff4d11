import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { cleanEnv, killAll, runCli, type ServerProcess, startServe } from './blackbox-process.ts';
import { rawRequest } from './raw-http.ts';

/**
 * The production default. It is also the bound on other clients: each of their requests must be answered
 * while every held slow connection is still open, i.e. before the first is timed out. A starved server
 * would answer them only once the timeout frees its connections; a busy machine slows both alike.
 */
const HEADERS_TIMEOUT_S = 10;
const PER_ADDRESS = 128;
const ATTACK_SOCKETS = 3_000;

interface Attack {
  /** The first status line each socket received, counted. */
  answers: Map<string, number>;
  closed(): number;
  /** Sockets open and not answered: held by the server. */
  held(): number;
  stop(): void;
}

/** Connection attempts in flight at once: below the listen backlog (511), whose overflow the kernel drops. */
const CONNECTING_AT_ONCE = 256;

/**
 * Opens `count` connections spread over `addresses` (loopback addresses: one client each), each sending
 * a request line and then one header line a second, never finishing: a slowloris. At most
 * CONNECTING_AT_ONCE are connecting at a time: a burst of SYNs beyond the backlog is dropped and
 * retried seconds later, on a busy machine past any wait. A socket closed without an answer is counted
 * as `(no answer)`.
 */
function slowloris(port: number, count: number, addresses: string[]): Attack {
  const answers = new Map<string, number>();
  const sockets: net.Socket[] = [];
  const tally = (line: string) => answers.set(line, (answers.get(line) ?? 0) + 1);
  let closed = 0;
  let connecting = 0;
  const open = (i: number) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: addresses[i % addresses.length] });
    sockets.push(socket);
    connecting++;
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    let pending = true;
    const connected = () => {
      if (!pending) return;
      pending = false;
      connecting--;
      openMore();
    };
    socket.on('error', () => {});
    socket.on('connect', () => {
      connected();
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: petstore.test\r\n');
      timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 1_000);
    });
    socket.on('data', (chunk) => {
      if (answered) return;
      answered = true;
      tally(String(chunk).split('\r\n', 1)[0]!);
    });
    socket.on('close', () => {
      connected();
      clearInterval(timer);
      if (!answered) tally('(no answer)');
      closed++;
    });
  };
  let next = 0;
  const openMore = () => {
    while (next < count && connecting < CONNECTING_AT_ONCE) open(next++);
  };
  openMore();
  const held = () => sockets.length - [...answers.values()].reduce((sum, n) => sum + n, 0);
  return { answers, closed: () => closed, held, stop: () => sockets.forEach((socket) => socket.destroy()) };
}

/** Sequential requests of a well-behaved client from its own address; their durations in ms. */
async function otherClient(port: number, key: string, rounds: number): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const target = i % 2 === 0 ? '/healthz' : '/v1/pets?limit=5';
    const response = await rawRequest({
      port,
      localAddress: '127.0.0.3',
      send: `GET ${target} HTTP/1.1\r\nHost: petstore.test\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      waitMs: HEADERS_TIMEOUT_S * 1_000,
    });
    assert.equal(response.status, 200, `${target} while under attack`);
    durations.push(response.elapsedMs);
  }
  return durations;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

async function openConnections(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^petstore_http_connections (\d+)/m.exec(text)![1]);
}

/**
 * Polls until `probe` holds. No deadline of its own: on a busy machine 3,000 connections take longer,
 * which says nothing about the server; the suite's time-out stops a real hang.
 */
async function waitUntil(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((wake) => setTimeout(wake, 100));
}

describe(`slow clients: ${ATTACK_SOCKETS} slowloris connections`, { timeout: 120_000 }, () => {
  const children = new Set<ChildProcess>();
  let dir: string;
  let server: ServerProcess;
  let port: number;
  let key: string;
  let baseline: number[];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-slow-'));
    const env = cleanEnv({
      DATABASE_URL: join(dir, 'petstore.db'),
      LOG_LEVEL: 'info',
      PETSTORE_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_S),
    });
    await runCli(['migrate'], env); // keys create never makes a database
    const created = await runCli(['keys', 'create', '--plan', 'business'], env);
    key = created.stdout.trimEnd().split('\n').at(-1)!;
    server = await startServe(env, children);
    port = Number(new URL(server.url).port);
    baseline = await otherClient(port, key, 20);
  });
  after(async () => {
    killAll(children);
    await rm(dir, { recursive: true, force: true });
  });

  function report(t: TestContext, label: string, durations: number[]) {
    t.diagnostic(
      `${label}: other client p50 ${percentile(durations, 50).toFixed(1)} ms, p99 ${percentile(durations, 99).toFixed(1)} ms, max ${Math.max(...durations).toFixed(1)} ms (baseline p50 ${percentile(baseline, 50).toFixed(1)} ms, max ${Math.max(...baseline).toFixed(1)} ms)`,
    );
  }

  it(`one client address opening ${ATTACK_SOCKETS} → ${PER_ADDRESS} admitted, the rest 429 at once, other clients answered while the ${PER_ADDRESS} are held, those 408 after ${HEADERS_TIMEOUT_S} s`, async (t) => {
    const attack = slowloris(port, ATTACK_SOCKETS, ['127.0.0.2']);
    try {
      await waitUntil(
        () => [...attack.answers.values()].reduce((sum, n) => sum + n, 0) >= ATTACK_SOCKETS - PER_ADDRESS,
      );
      assert.equal(attack.answers.get('HTTP/1.1 429 Too Many Requests'), ATTACK_SOCKETS - PER_ADDRESS);
      assert.ok(
        (await openConnections(server)) <= PER_ADDRESS + 2,
        'the server holds at most the cap of that address',
      );
      const durations = await otherClient(port, key, 40);
      report(t, 'one address', durations);
      assert.equal(attack.held(), PER_ADDRESS, 'every admitted one still held');
      await waitUntil(() => attack.closed() === ATTACK_SOCKETS);
      assert.equal(attack.answers.get('HTTP/1.1 408 Request Timeout'), PER_ADDRESS);
    } finally {
      attack.stop();
    }
  });

  it(`${ATTACK_SOCKETS} slow connections from 30 addresses (all admitted) → other clients answered while all are held, every slow one 408 after ${HEADERS_TIMEOUT_S} s`, async (t) => {
    const addresses = Array.from({ length: 30 }, (_, i) => `127.0.2.${i + 1}`);
    const attack = slowloris(port, ATTACK_SOCKETS, addresses);
    try {
      let open = 0;
      while (open < ATTACK_SOCKETS) {
        await new Promise((wake) => setTimeout(wake, 100));
        open = await openConnections(server);
      }
      t.diagnostic(`${open} connections open on the server`);
      const durations = await otherClient(port, key, 40);
      report(t, '30 addresses', durations);
      assert.equal(attack.held(), ATTACK_SOCKETS, 'every slow one still held');
      await waitUntil(() => attack.closed() === ATTACK_SOCKETS);
      assert.deepEqual([...attack.answers], [['HTTP/1.1 408 Request Timeout', ATTACK_SOCKETS]]);
      assert.ok((await openConnections(server)) <= 2, 'nothing is left open');
    } finally {
      attack.stop();
    }
  });
});
