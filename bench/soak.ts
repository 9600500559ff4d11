/**
 * Soak: `npm run soak [-- --seconds 120 --keys 40 --database postgres://…]`. Serves from a fresh
 * database and drives mixed traffic for a while: many Free keys each sending a little faster than
 * their 60 a minute (so every minute has its 429s, never enough for a ban), creates (some replayed
 * by Idempotency-Key), listings, reads, bad requests, unknown paths, anonymous probes, and a trickle
 * of slowloris connections. Fails when any answer is not one the traffic expects, or when the
 * server's resident memory or open file descriptors grow from the first sample (after warm-up) to
 * the last beyond the allowed drift. Kept out of `npm test`: it runs for minutes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateKey } from '../packages/server/src/auth/keys.ts';
import { freePort, startPinned, stop } from './processes.ts';
import { CLI, startNodeFlags } from './seed.ts';
import { openStoreAt } from '../packages/server/src/features/store.ts';

const HELP = `npm run soak -- [--seconds 120] [--keys 40] [--database postgres://…]

Serves from a fresh database (a temporary SQLite file, or --database) and drives mixed traffic for
--seconds: --keys Free keys each a little over their limit, creates (some replayed), listings, reads,
bad requests, unknown paths, anonymous probes and slowloris connections. Exits 1 when an answer is
not one the traffic expects, or when resident memory or open files grow beyond the allowed drift.`;

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    keys: { type: 'string', default: '40' },
    database: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (options.help) {
  console.log(HELP);
  process.exit(0);
}
const SECONDS = Number(options.seconds);
const KEYS = Number(options.keys);
/** Each key sends this many requests a minute against its limit of 60: the edge, with some 429s. */
const PER_KEY_PER_MINUTE = 66;
const WARM_UP_MS = 15_000;
const SAMPLE_EVERY_MS = 10_000;
/** Allowed growth: resident memory under load (first sample to last), open files when idle (before to after). */
const MAX_RSS_GROWTH = 1.25;
const MAX_FD_GROWTH = 4;

/** What each kind of request may be answered with; anything else is a failure. */
const EXPECTED: Record<string, number[]> = {
  list: [200, 429],
  create: [201, 429],
  replay: [201, 429],
  get: [200, 404, 429],
  bad: [400, 429],
  unknown: [404, 429],
  anonymous: [401, 429],
  health: [200],
  ready: [200],
  slowloris: [408],
};

const dir = mkdtempSync(join(tmpdir(), 'petstore-soak-'));
const database = options.database ?? join(dir, 'petstore.db');
const storage = await openStoreAt(database);
await storage.migrate();
const keys: string[] = [];
for (let i = 0; i < KEYS; i++) {
  const { secret, id, digest } = generateKey('test');
  const key = { id, digest, plan: 'free' as const, perMinute: null, perDay: null, label: 'soak' };
  await storage.keys.create({ ...key, environment: 'test', createdAt: Date.now(), expiresAt: null });
  keys.push(secret);
}
await storage.close();

const port = await freePort();
const server = startPinned(
  undefined,
  process.execPath,
  [...startNodeFlags(), CLI, 'serve', '--port', String(port)],
  {
    env: { ...process.env, DATABASE_URL: database, LOG_LEVEL: 'warn', PETSTORE_HEADERS_TIMEOUT_SECONDS: '5' },
    logFile: join(dir, 'server.log'),
  },
);
const base = `http://127.0.0.1:${port}`;
for (let tries = 0; ; tries++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    if (tries > 100) throw new Error('the server did not start');
  }
  await new Promise((wake) => setTimeout(wake, 100));
}

const counts = new Map<string, number>();
const unexpected: string[] = [];
const record = (kind: string, status: number) => {
  counts.set(`${kind} ${status}`, (counts.get(`${kind} ${status}`) ?? 0) + 1);
  if (!EXPECTED[kind]!.includes(status) && unexpected.length < 20) unexpected.push(`${kind} → ${status}`);
};

async function send(kind: string, path: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  try {
    const response = await fetch(`${base}${path}`, { ...init, headers, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    record(kind, response.status);
  } catch (error) {
    record(kind, 0);
    if (unexpected.length < 20) unexpected.push(`${kind} ${path}: ${(error as Error).message}`);
  }
}

const createBody = (i: number) =>
  JSON.stringify({ name: `soak ${i}`, categoryId: i % 50, status: 'available' });
let serial = 0;

/** One request of the mix, for one key. */
async function mixed(key: string, replayKey: string) {
  const i = serial++;
  const roll = i % 20;
  const json = { 'content-type': 'application/json' };
  if (roll < 11)
    return send('list', `/v1/pets?limit=${(i % 100) + 1}${i % 3 === 0 ? '&status=available' : ''}`, { key });
  if (roll < 14)
    return send('create', '/v1/pets', { key, method: 'POST', headers: json, body: createBody(i) });
  if (roll < 15) {
    const headers = { ...json, 'idempotency-key': replayKey };
    return send('replay', '/v1/pets', { key, method: 'POST', headers, body: createBody(0) });
  }
  if (roll < 17) return send('get', `/v1/pets/${(i % 500) + 1}`, { key });
  if (roll < 18) return send('bad', '/v1/pets?limit=0', { key });
  if (roll < 19) return send('unknown', '/v1/categories', { key });
  return send('bad', '/v1/pets', { key, method: 'POST', headers: json, body: '{"name":""}' });
}

/** A client that opens a connection, sends half a request line and stops: answered 408. */
function slowloris(): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    let answered = false;
    socket.on('error', () => {});
    socket.on('connect', () => socket.write('GET /v1/pets HTTP/1.1\r\nHost: soak\r\n'));
    socket.on('data', (chunk) => {
      if (answered) return;
      answered = true;
      record('slowloris', Number(String(chunk).split(' ')[1]));
    });
    socket.on('close', () => {
      if (!answered) record('slowloris', 0);
      resolve();
    });
  });
}

interface Sample {
  second: number;
  rssMb: number;
  fds: number;
  connections: number;
}

function sample(startedAt: number): Sample {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]);
  const fds = readdirSync(`/proc/${server.pid}/fd`).length;
  return {
    second: Math.round((performance.now() - startedAt) / 1000),
    rssMb: rssKb / 1024,
    fds,
    connections: 0,
  };
}

async function withConnections(entry: Sample): Promise<Sample> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return { ...entry, connections: Number(/^petstore_http_connections (\d+)/m.exec(text)?.[1] ?? 0) };
}

const idleBefore = sample(performance.now());
const startedAt = performance.now();
const endsAt = startedAt + SECONDS * 1000;
const timers: NodeJS.Timeout[] = [];
const inFlight = new Set<Promise<void>>();
const track = (promise: Promise<void>) => {
  inFlight.add(promise);
  void promise.finally(() => inFlight.delete(promise));
};
keys.forEach((key, index) => {
  const replayKey = randomUUID();
  const every = 60_000 / PER_KEY_PER_MINUTE;
  const begin = setTimeout(
    () => {
      timers.push(setInterval(() => track(mixed(key, replayKey)), every));
    },
    (every * index) / KEYS,
  );
  timers.push(begin);
});
timers.push(setInterval(() => track(send('anonymous', '/v1/pets')), 1_000));
timers.push(setInterval(() => track(send('health', '/healthz')), 2_000));
timers.push(setInterval(() => track(send('ready', '/readyz')), 2_000));
timers.push(
  setInterval(() => {
    for (let i = 0; i < 10; i++) track(slowloris());
  }, 5_000),
);

const samples: Sample[] = [];
await new Promise((wake) => setTimeout(wake, WARM_UP_MS));
while (performance.now() < endsAt) {
  const entry = await withConnections(sample(startedAt));
  samples.push(entry);
  console.log(
    `${String(entry.second).padStart(5)} s  rss ${entry.rssMb.toFixed(1)} MB  fds ${entry.fds}  connections ${entry.connections}`,
  );
  await new Promise((wake) =>
    setTimeout(wake, Math.min(SAMPLE_EVERY_MS, Math.max(0, endsAt - performance.now()))),
  );
}
for (const timer of timers) clearInterval(timer);
await Promise.all(inFlight);
const lastLoaded = samples.at(-1)!;
// Idle again: keep-alive and slow connections close within their timeouts (5 s each here).
let last = await withConnections(sample(startedAt));
for (let waited = 0; last.connections > 1 && waited < 15_000; waited += 500) {
  await new Promise((wake) => setTimeout(wake, 500));
  last = await withConnections(sample(startedAt));
}
console.log(
  `${String(last.second).padStart(5)} s  rss ${last.rssMb.toFixed(1)} MB  fds ${last.fds}  connections ${last.connections}  (traffic stopped)`,
);
await stop(server);

const first = samples[0]!;
const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
console.log(`\n${total} requests in ${SECONDS} s over ${KEYS} keys:`);
for (const [outcome, n] of [...counts].sort()) console.log(`  ${outcome.padEnd(16)} ${n}`);
console.log(
  `\nunder load: rss ${first.rssMb.toFixed(1)} MB at ${first.second} s (after the warm-up), ${lastLoaded.rssMb.toFixed(1)} MB at ${lastLoaded.second} s`,
);
console.log(
  `idle: before the traffic rss ${idleBefore.rssMb.toFixed(1)} MB, ${idleBefore.fds} fds; after it rss ${last.rssMb.toFixed(1)} MB, ${last.fds} fds, ${last.connections} connection (the metrics request)`,
);
const problems = [...unexpected];
if (lastLoaded.rssMb > first.rssMb * MAX_RSS_GROWTH) {
  problems.push(`rss under load grew ${first.rssMb.toFixed(1)} → ${lastLoaded.rssMb.toFixed(1)} MB`);
}
if (last.fds > idleBefore.fds + MAX_FD_GROWTH)
  problems.push(`idle open files grew ${idleBefore.fds} → ${last.fds}`);
rmSync(dir, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`\nsoak FAILED:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('\nsoak passed: only expected answers, memory and file descriptors flat');
