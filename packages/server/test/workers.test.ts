import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { createKey } from './scaleout-instance.ts';

const MAIN = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'petstore.js');
const START_MS = 30_000;

type Entry = Record<string, unknown>;

/** `petstore serve --workers N`: its log entries (JSON lines on standard output) as they arrive. */
class Served {
  readonly child: ChildProcess;
  readonly entries: Entry[] = [];
  readonly #waiters = new Set<() => void>();
  #stderr = '';

  constructor(args: string[], env: Record<string, string>) {
    const inherited = Object.entries(process.env).filter(
      ([name]) => !/^(PORT|HOST|DATABASE_URL|REDIS_URL|PETSTORE_(?!TEST_|REQUIRE_)\w+)$/.test(name),
    );
    this.child = spawn(process.execPath, [MAIN, 'serve', ...args], {
      env: { ...Object.fromEntries(inherited), LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stderr!.on('data', (chunk) => {
      this.#stderr += chunk;
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      try {
        this.entries.push(JSON.parse(line) as Entry);
      } catch {
        return;
      }
      for (const wake of this.#waiters) wake();
    });
  }

  /** The first entry (from `from` on) matching, waiting for it up to `timeoutMs`. */
  async waitFor(
    match: (entry: Entry) => boolean,
    what: string,
    from = 0,
    timeoutMs = START_MS,
  ): Promise<Entry> {
    const find = () => this.entries.slice(from).find(match);
    const deadline = Date.now() + timeoutMs;
    for (let found = find(); ; found = find()) {
      if (found) return found;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(
          `no log entry "${what}"\n${this.#stderr}\n${this.entries.map((e) => JSON.stringify(e)).join('\n')}`,
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 100);
        this.#waiters.add(wake);
      });
    }
  }

  async exit(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const [code] = await once(this.child, 'exit');
    return code as number | null;
  }
}

interface Answer {
  status: number;
  body: string;
}

/** One request on a connection of its own, so the cluster hands each to the next worker. */
function request(url: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(new URL(path, url), {
      method: payload === undefined ? 'GET' : 'POST',
      agent: false,
      headers: {
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.once('end', () => resolve({ status: response.statusCode!, body }));
    });
    outgoing.end(payload);
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('petstore serve --workers 2 on SQLite', () => {
  let dir: string;
  let env: Record<string, string>;
  let served: Served;
  let url: string;
  let key: string;
  const created: number[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-workers-'));
    env = { DATABASE_URL: join(dir, 'petstore.db') };
    served = new Served(['--workers', '2', '--port', '0'], env);
    const listening = await served.waitFor((e) => e.msg === 'all workers listening', 'all workers listening');
    url = listening.url as string;
    ({ key } = await createKey(env, ['--plan', 'business']));
  });

  after(async () => {
    if (served.child.exitCode === null) served.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('start-up → migrations run once in the primary, and a warning that limits are per worker without REDIS_URL', () => {
    const primary = served.entries.filter((e) => e.role === 'primary');
    assert.equal(primary.filter((e) => e.msg === 'migrations checked').length, 1);
    const warning = primary.find((e) => /REDIS_URL is not set/.test(String(e.msg)));
    assert.equal(warning?.level, 40);
  });

  it('POST /v1/pets → 201 from two distinct worker processes; every pet is listed by every worker', async () => {
    const from = served.entries.length;
    for (let i = 0; i < 10; i++) {
      const answer = await request(url, '/v1/pets', { key, body: { name: `pet ${i}`, categoryId: i } });
      assert.equal(answer.status, 201, answer.body);
      created.push(JSON.parse(answer.body).id);
    }
    // Log lines are written in batches (at least every 250 ms): wait for all ten.
    const createdLines = () =>
      served.entries.slice(from).filter((e) => e.msg === 'request' && e.statusCode === 201);
    const deadline = Date.now() + 5_000;
    while (createdLines().length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const pids = new Set(createdLines().map((e) => e.pid));
    assert.equal(pids.size, 2, `201s served by ${[...pids].join(', ')}`);

    for (let i = 0; i < 4; i++) {
      const answer = await request(url, '/v1/pets?limit=100', { key });
      assert.equal(answer.status, 200);
      const ids = (JSON.parse(answer.body) as { id: number }[]).map((pet) => pet.id);
      assert.deepEqual(ids, created);
    }
  });

  it('GET /metrics → every worker’s series, labelled by worker, whichever worker answers', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await request(url, '/metrics');
      assert.equal(answer.status, 200);
      const created201 = [
        ...answer.body.matchAll(
          /^petstore_http_requests_total\{worker="(\d)",operation="createPet",method="POST",status="201"\} (\d+)$/gm,
        ),
      ];
      assert.deepEqual(created201.map((m) => m[1]).sort(), ['1', '2']);
      assert.equal(
        created201.reduce((sum, m) => sum + Number(m[2]), 0),
        10,
      );
      assert.equal((answer.body.match(/^# TYPE petstore_http_requests_total /gm) ?? []).length, 1);
    }
  });

  it('a worker killed → the primary restarts it and requests are answered by the new worker', async () => {
    const from = served.entries.length;
    const victim = served.entries.find((e) => e.msg === 'worker listening' && e.worker === '1')!
      .workerPid as number;
    process.kill(victim, 'SIGKILL');
    const exited = await served.waitFor(
      (e) => e.msg === 'worker exited unexpectedly; restarting it',
      'restart',
      from,
    );
    assert.equal(exited.signal, 'SIGKILL');
    const relisten = await served.waitFor(
      (e) => e.msg === 'worker listening' && e.worker === '1',
      'relisten',
      from,
    );
    assert.notEqual(relisten.workerPid, victim);
    const answered = served.entries.length;
    for (let i = 0; i < 4; i++) assert.equal((await request(url, '/v1/pets?limit=1', { key })).status, 200);
    await served.waitFor((e) => e.msg === 'request' && e.pid === relisten.workerPid, 'new worker', answered);
  });

  it('SIGTERM to the primary → workers drain and exit, then the primary exits 0', async () => {
    const workers = served.entries
      .filter((e) => e.msg === 'worker listening')
      .map((e) => e.workerPid as number);
    served.child.kill('SIGTERM');
    assert.equal(await served.exit(), 0);
    assert.ok(served.entries.some((e) => e.msg === 'all workers exited' && e.exitCode === 0));
    assert.deepEqual(workers.filter(isAlive), []);
  });
});

describe('petstore serve --workers 2 when the port is taken', () => {
  it('start-up → the workers cannot listen, and the primary stops with exit 1 instead of restarting them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-workers-'));
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((blocker.address() as net.AddressInfo).port);
      const served = new Served(['--workers', '2', '--port', port], {
        DATABASE_URL: join(dir, 'petstore.db'),
      });
      assert.equal(await served.exit(), 1);
      assert.ok(served.entries.some((e) => e.msg === 'a worker failed to start; stopping'));
      assert.equal(served.entries.filter((e) => String(e.msg).includes('restarting')).length, 0);
    } finally {
      blocker.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
