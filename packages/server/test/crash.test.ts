import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { createKey, petstore } from './scaleout-instance.ts';
import { type ServeProcess, spawnServe } from './serve-process.ts';
import { service } from './services.ts';

const CYCLES = 3;
const WRITERS = 8;

interface Attempt {
  key: string;
  name: string;
  categoryId: number;
}

interface Acknowledged extends Attempt {
  id: number;
}

function environment(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...settings };
}

async function start(env: NodeJS.ProcessEnv): Promise<{ server: ServeProcess; url: string }> {
  const server = spawnServe({ ...env, LOG_LEVEL: 'info' });
  return { server, url: await server.listening(20_000) };
}

/** One create with its Idempotency-Key: the pet's id when acknowledged (and whether it was a replay). */
async function create(
  url: string,
  apiKey: string,
  attempt: Attempt,
): Promise<{ id: number; replayed: boolean } | undefined> {
  try {
    const response = await fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': attempt.key,
      },
      body: JSON.stringify({ name: attempt.name, categoryId: attempt.categoryId }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as { id?: number; code?: string };
    if (response.status === 201) {
      return { id: body.id!, replayed: response.headers.get('idempotent-replayed') === 'true' };
    }
    assert.equal(
      response.status,
      503,
      `a create answers 201 or 503, got ${response.status} ${JSON.stringify(body)}`,
    );
    return undefined;
  } catch (error) {
    // The process was killed: no answer. Anything else is a failure of the test itself.
    if ((error as Error).name === 'AssertionError') throw error;
    return undefined;
  }
}

/**
 * Cycles of: serve, `WRITERS` concurrent clients creating pets with Idempotency-Keys, SIGKILL at a random
 * moment, serve again and retry every create that got no 201 with the same key. Returns what the
 * clients were told, for the caller to check against the database.
 */
async function crashCycles(t: TestContext, env: NodeJS.ProcessEnv, apiKey: string) {
  const acknowledged = new Map<string, Acknowledged>();
  let serial = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const { server, url } = await start(env);
    let killed = false;
    const unanswered: Attempt[] = [];
    const writer = async () => {
      while (!killed) {
        const attempt = { key: `crash-${cycle}-${serial}`, name: `pet ${serial}`, categoryId: serial };
        serial++;
        const created = await create(url, apiKey, attempt);
        if (created === undefined) unanswered.push(attempt);
        else acknowledged.set(attempt.key, { ...attempt, id: created.id });
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await new Promise((wake) => setTimeout(wake, 300 + Math.random() * 500));
    killed = true;
    server.child.kill('SIGKILL');
    await Promise.all(writers);
    await server.exited;

    const restarted = await start(env);
    let replayed = 0;
    for (const attempt of unanswered) {
      const created = await create(restarted.url, apiKey, attempt);
      assert.ok(created !== undefined, `the retry of ${attempt.key} after the restart is acknowledged`);
      if (created.replayed) replayed++;
      acknowledged.set(attempt.key, { ...attempt, id: created.id });
    }
    await restarted.server.stop();
    t.diagnostic(
      `cycle ${cycle + 1}: ${serial} creates so far; ${unanswered.length} unanswered at the kill, retried: ${replayed} replayed (committed before the kill), ${unanswered.length - replayed} created`,
    );
  }
  return [...acknowledged.values()];
}

/** Every acknowledged pet is stored as acknowledged; ids unique; each Idempotency-Key made one pet. */
function assertAllThere(
  acknowledged: Acknowledged[],
  stored: { id: number; name: string; categoryId: number }[],
) {
  const byId = new Map(stored.map((pet) => [pet.id, pet]));
  assert.equal(byId.size, stored.length, 'ids are unique');
  const lost = acknowledged.filter((pet) => {
    const found = byId.get(pet.id);
    return !found || found.name !== pet.name || found.categoryId !== pet.categoryId;
  });
  assert.deepEqual(lost, [], `lost 0 of ${acknowledged.length} acknowledged creates`);
  const names = new Map<string, number>();
  for (const pet of stored) names.set(pet.name, (names.get(pet.name) ?? 0) + 1);
  const doubled = [...names].filter(([, count]) => count > 1);
  assert.deepEqual(doubled, [], 'every Idempotency-Key created exactly one pet');
}

describe('SIGKILL while creating: SQLite', { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-crash-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it(`${CYCLES} SIGKILL cycles under ${WRITERS} concurrent writers → acknowledged = stored, lost 0, ids unique, retries create exactly one pet, integrity_check ok`, async (t) => {
    const database = join(dir, 'petstore.db');
    const env = environment({ DATABASE_URL: database });
    await petstore(['migrate'], { DATABASE_URL: database }); // keys create never makes a database
    const { key } = await createKey({ DATABASE_URL: database }, [
      '--plan',
      'enterprise',
      '--per-minute',
      '1000000',
      '--per-day',
      '10000000',
    ]);
    const acknowledged = await crashCycles(t, env, key);
    const db = new DatabaseSync(database, { readOnly: true });
    try {
      assert.equal(db.prepare('PRAGMA integrity_check').get()!.integrity_check, 'ok');
      const stored = db
        .prepare('SELECT id, name, category_id AS categoryId FROM pets')
        .all()
        .map((row) => ({ id: Number(row.id), name: String(row.name), categoryId: Number(row.categoryId) }));
      assertAllThere(acknowledged, stored);
      t.diagnostic(`${acknowledged.length} acknowledged, ${stored.length} stored`);
    } finally {
      db.close();
    }
  });
});

const postgres = await service('postgres');

describe(
  'SIGKILL while creating: PostgreSQL',
  { skip: 'skip' in postgres ? postgres.skip : false, timeout: 120_000 },
  () => {
    const name = `petstore_crash_${process.pid}_${Date.now()}`;
    let admin: pg.Client;
    let url: string;
    before(async () => {
      const base = 'url' in postgres ? postgres.url : '';
      admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const target = new URL(base);
      target.pathname = `/${name}`;
      url = target.href;
    });
    after(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it(`${CYCLES} SIGKILL cycles under ${WRITERS} concurrent writers → acknowledged = stored, lost 0, ids unique, retries create exactly one pet`, async (t) => {
      const env = environment({ DATABASE_URL: url });
      await petstore(['migrate'], { DATABASE_URL: url }); // keys create never makes a database
      const { key } = await createKey({ DATABASE_URL: url }, [
        '--plan',
        'enterprise',
        '--per-minute',
        '1000000',
        '--per-day',
        '10000000',
      ]);
      const acknowledged = await crashCycles(t, env, key);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT id::text AS id, name, category_id::text AS category FROM pets',
        );
        const stored = rows.map((row) => ({
          id: Number(row.id),
          name: String(row.name),
          categoryId: Number(row.category),
        }));
        assertAllThere(acknowledged, stored);
        t.diagnostic(`${acknowledged.length} acknowledged, ${stored.length} stored`);
      } finally {
        await client.end();
      }
    });
  },
);
