import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, open, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cleanEnv, killAll, runCliProcess, type ServerProcess, startServe } from './blackbox-process.ts';
import { eventually } from './scaleout-instance.ts';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
/** As root, the service runs as `nobody` so that file permissions apply to it, as in production. */
const NOBODY = { uid: 65_534, gid: 65_534 };
const serviceUser = isRoot ? NOBODY : {};

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function call(server: ServerProcess, path: string, init: { key?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> } as Reply;
}

async function createKey(env: NodeJS.ProcessEnv): Promise<string> {
  await runCliProcess(['migrate'], env, serviceUser); // keys create never makes a database
  const created = await runCliProcess(['keys', 'create', '--plan', 'business'], env, serviceUser);
  assert.equal(created.code, 0, created.stderr);
  return created.stdout.trimEnd().split('\n').at(-1)!;
}

/** A directory the service's user owns (under a parent it can traverse). */
async function serviceDirectory(prefix: string): Promise<{ parent: string; dir: string }> {
  const parent = await mkdtemp(join(tmpdir(), prefix));
  const dir = join(parent, 'data');
  await mkdir(dir);
  if (isRoot) {
    await chmod(parent, 0o755);
    await chown(dir, NOBODY.uid, NOBODY.gid);
  }
  return { parent, dir };
}

describe(
  'readiness with a read-only data directory (the service as a non-root user)',
  { timeout: 60_000 },
  () => {
    const children = new Set<ChildProcess>();
    let parent: string;
    let dir: string;
    let env: NodeJS.ProcessEnv;
    let key: string;
    let server: ServerProcess;

    before(async () => {
      ({ parent, dir } = await serviceDirectory('petstore-readonly-'));
      env = cleanEnv({ DATABASE_URL: join(dir, 'petstore.db'), LOG_LEVEL: 'info' });
      key = await createKey(env);
      await chmod(dir, 0o555);
      server = await startServe(env, children, serviceUser);
    });
    after(async () => {
      killAll(children);
      await chmod(dir, 0o755).catch(() => {});
      await rm(parent, { recursive: true, force: true });
    });

    it('serve with its directory read-only → listens; /healthz 200, /readyz 503, POST /v1/pets 503 service_unavailable', async () => {
      assert.equal((await call(server, '/healthz')).status, 200);
      const ready = await call(server, '/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.code, 'service_unavailable');
      assert.match(String(ready.body.message), /database \(sqlite\)/);
      const created = await call(server, '/v1/pets', { key, body: { name: 'Rex', categoryId: 1 } });
      assert.equal(created.status, 503);
      assert.equal(created.body.code, 'service_unavailable');
      assert.ok(server.lines.some((line) => line.includes('database unavailable at start-up')));
    });

    it('the directory made writable again → /readyz 200 and POST /v1/pets 201 within a few seconds, same process', async () => {
      const pid = server.child.pid;
      await chmod(dir, 0o755);
      await eventually('/readyz 200 after the permission is restored', 10_000, async () => {
        return (await call(server, '/readyz')).status === 200;
      });
      const created = await call(server, '/v1/pets', { key, body: { name: 'Rex', categoryId: 1 } });
      assert.equal(created.status, 201);
      assert.equal(server.child.pid, pid);
      assert.equal(server.child.exitCode, null, 'no restart');
    });
  },
);

/** Mounting a small tmpfs needs root; elsewhere the suite is skipped and says so. */
const fullDiskSkip = isRoot ? false : 'the full-disk suite mounts a tmpfs and needs root';
if (fullDiskSkip) console.warn(`# SKIPPED: ${fullDiskSkip}`);

describe('readiness on a small file system that fills up', { skip: fullDiskSkip, timeout: 60_000 }, () => {
  const children = new Set<ChildProcess>();
  let parent: string;
  let dir: string;
  let key: string;
  let server: ServerProcess;
  let mounted = false;
  const filler = () => join(dir, 'filler');
  const acknowledged: number[] = [];

  before(async () => {
    parent = await mkdtemp(join(tmpdir(), 'petstore-fullfs-'));
    dir = join(parent, 'fs');
    await mkdir(dir);
    await run('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0755', 'tmpfs', dir]);
    mounted = true;
    await chown(dir, NOBODY.uid, NOBODY.gid);
    await chmod(parent, 0o755);
    const env = cleanEnv({
      DATABASE_URL: join(dir, 'petstore.db'),
      LOG_LEVEL: 'info',
      PETSTORE_MIN_FREE_DISK_MB: '2',
    });
    key = await createKey(env);
    server = await startServe(env, children, serviceUser);
  });
  after(async () => {
    killAll(children);
    if (mounted) await run('umount', ['-l', dir]).catch(() => {});
    await rm(parent, { recursive: true, force: true });
  });

  const create = async (i: number) => {
    const reply = await call(server, '/v1/pets', {
      key,
      body: { name: `pet ${i} ${'x'.repeat(180)}`, categoryId: i },
    });
    if (reply.status === 201) acknowledged.push(Number(reply.body.id));
    return reply;
  };

  it('with room → /readyz 200 with disk ok, POST /v1/pets 201', async () => {
    const ready = await call(server, '/readyz');
    assert.equal(ready.status, 200);
    assert.equal((ready.body.checks as Record<string, string>).disk, 'ok');
    assert.equal((await create(0)).status, 201);
  });

  it('the file system filled up → /readyz 503 naming the disk; creates answer 201 or 503, never 500, until one is 503', async () => {
    const file = await open(filler(), 'w');
    try {
      const block = Buffer.alloc(64 * 1024, 1);
      for (;;) await file.write(block);
    } catch (error) {
      assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      await file.close().catch(() => {});
    }
    await eventually('/readyz 503', 5_000, async () => (await call(server, '/readyz')).status === 503);
    const ready = await call(server, '/readyz');
    assert.match(String(ready.body.message), /disk almost full \(0 MB free, 2 MB required\)/);
    let refused: Reply | undefined;
    for (let i = 1; i <= 3_000 && !refused; i++) {
      const reply = await create(i);
      assert.ok(
        reply.status === 201 || reply.status === 503,
        `create ${i}: ${reply.status} ${JSON.stringify(reply.body)}`,
      );
      if (reply.status === 503) refused = reply;
    }
    assert.equal(refused?.body.code, 'service_unavailable', 'a full disk makes creates 503');
    assert.equal((await call(server, '/healthz')).status, 200);
  });

  it('space freed → /readyz 200 and POST /v1/pets 201 again without a restart; every acknowledged pet is there, integrity ok', async () => {
    await unlink(filler());
    await eventually(
      '/readyz 200 after space is freed',
      10_000,
      async () => (await call(server, '/readyz')).status === 200,
    );
    assert.equal((await create(10_000)).status, 201);
    assert.equal(server.child.exitCode, null, 'no restart');
    killAll(children);
    await new Promise((wake) => setTimeout(wake, 200));
    const db = new DatabaseSync(join(dir, 'petstore.db'), { readOnly: true });
    try {
      assert.equal(db.prepare('PRAGMA integrity_check').get()!.integrity_check, 'ok');
      const ids = new Set(
        db
          .prepare('SELECT id FROM pets')
          .all()
          .map((row) => Number(row.id)),
      );
      assert.deepEqual(
        acknowledged.filter((id) => !ids.has(id)),
        [],
        `all ${acknowledged.length} acknowledged pets are stored`,
      );
    } finally {
      db.close();
    }
  });
});
