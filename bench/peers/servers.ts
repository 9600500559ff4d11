import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, type Harness, SERVER_CORE, type Target } from '../harness.ts';
import { freePort, type Response, type Started, startPinned, stop, waitForStatus } from '../processes.ts';
import { STATUS_OF_N } from '../seed.ts';
import { hashKey, openDatabase } from './common.ts';

/** The servers of one `npm run bench:peers`, in the order of the printed table. */
export const SERVERS = ['raw', 'petstore', 'fastify', 'fastify-log', 'express'] as const;
export type ServerName = (typeof SERVERS)[number];

export const LABELS: Record<ServerName, string> = {
  raw: 'raw `node:http`',
  petstore: 'project (log on)',
  fastify: 'Fastify peer',
  'fastify-log': 'Fastify peer, log on',
  express: 'Express peer',
};

const PEER_FILES: Record<Exclude<ServerName, 'raw' | 'petstore'>, string> = {
  fastify: 'fastify-peer.ts',
  'fastify-log': 'fastify-peer.ts',
  express: 'express-peer.ts',
};

/** A key no benchmark reaches the limit of, as the project's bench key (the limiter stays on). */
const PEER_PER_MINUTE = 1_000_000_000;

/** Adds an API key allowed `perMinute` requests a minute; returns the key (only its SHA-256 is stored). */
export function addPeerKey(path: string, perMinute: number): string {
  const db = openDatabase(path);
  try {
    const key = `peer_${randomBytes(24).toString('base64url')}`;
    db.prepare('INSERT INTO api_keys (key_hash, label, per_minute) VALUES (?, ?, ?)').run(
      hashKey(key),
      `${perMinute} a minute`,
      perMinute,
    );
    return key;
  } finally {
    db.close();
  }
}

/** Seeds a peer database like the project's: the same pets (names, categories, statuses) and one key. */
export function seedPeerDatabase(path: string, pets: number, perMinute = PEER_PER_MINUTE): string {
  const db = openDatabase(path);
  try {
    db.pragma('synchronous = OFF');
    db.prepare(
      `INSERT INTO pets (name, category_id, status)
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
       SELECT 'pet ' || n, n % 50 + 1, ${STATUS_OF_N} FROM seq`,
    ).run(pets);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return addPeerKey(path, perMinute);
}

export interface Server {
  name: ServerName;
  target: Target;
  key: string;
}

/** Starts peers and the project pinned to core 0, each on its own copy of a seeded database. */
export class Servers {
  readonly #harness: Harness;
  readonly #peerTemplate: { path: string; key: string };
  readonly #running = new Set<Started>();
  #copies = 0;

  constructor(harness: Harness, pets: number) {
    this.#harness = harness;
    const path = join(harness.workDir, `peer-template-${pets}.db`);
    this.#peerTemplate = { path, key: seedPeerDatabase(path, pets) };
  }

  async #startPeer(name: keyof typeof PEER_FILES): Promise<Server> {
    this.#copies += 1;
    const dbPath = join(this.#harness.workDir, `peer-${name}-${this.#copies}.db`);
    copyFileSync(this.#peerTemplate.path, dbPath);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: dbPath, PORT: String(port) };
    delete env.LOG_LEVEL;
    if (name === 'fastify-log') env.LOG_LEVEL = 'info';
    const script = new URL(PEER_FILES[name], import.meta.url).pathname;
    const logFile = join(this.#harness.workDir, `peer-${name}-${this.#copies}.log`);
    const started = startPinned(SERVER_CORE, process.execPath, [script], { env, logFile });
    this.#running.add(started);
    started.child.once('exit', () => this.#running.delete(started));
    const origin = `http://127.0.0.1:${port}`;
    const { key } = this.#peerTemplate;
    const readyAt = await waitForStatus(started, `${origin}/v1/pets?limit=20`, {
      authorization: `Bearer ${key}`,
    });
    return { name, key, target: { started, origin, startupMs: readyAt - started.spawnedAt } };
  }

  /** Any server but the raw baseline, which needs a body to answer with (see startRaw). */
  async start(name: Exclude<ServerName, 'raw'>, db: Database): Promise<Server> {
    if (name !== 'petstore') return this.#startPeer(name);
    const target = await this.#harness.startPetstore(db, {
      core: SERVER_CORE,
      label: `petstore-${(this.#copies += 1)}`,
      profile: false,
    });
    return { name, key: db.key, target };
  }

  /** The raw baseline answering every request with `response`'s status, body and content type. */
  async startRaw(response: Response, label: string): Promise<Server> {
    const target = await this.#harness.startRaw(response, SERVER_CORE, label);
    return { name: 'raw', key: '', target };
  }

  async stop(server: Server): Promise<void> {
    await stop(server.target.started);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#running].map((started) => stop(started, 2_000)));
    await this.#harness.stopAll();
  }
}

/** The peak resident set of a process so far (VmHWM), in bytes; 0 when it is gone. */
export function peakRssBytes(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
