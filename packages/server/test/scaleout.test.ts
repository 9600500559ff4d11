import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  call,
  createKey,
  type Instance,
  nextLink,
  petstore,
  type Reply,
  settleAll,
  startInstance,
} from './scaleout-instance.ts';
import { type PrivateRedis, privateRedis, privateRedisAvailable } from './scaleout-servers.ts';
import { service } from './services.ts';

// Three `petstore serve` processes share one fresh PostgreSQL database and one Redis. The server has no
// setting for a Redis key prefix, so this suite runs its own redis-server rather than share (and never
// flush) the common one; the database is created for the run and dropped after.
const postgres = await service('postgres');
const redisServer = privateRedisAvailable('scale-out suite');
const skip = 'skip' in postgres ? postgres.skip : 'skip' in redisServer ? redisServer.skip : false;

const BAN_THRESHOLD = 3;
const PER_INSTANCE = 100;

describe('scale-out: three instances on one PostgreSQL and one Redis', { skip }, () => {
  const database = `petstore_test_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client | undefined;
  let redis: PrivateRedis | undefined;
  const instances: Instance[] = [];
  let busyKey: string;
  /** Free keys (60 a minute): one for the shared limit, one to be banned. */
  let limitedKey: string;
  let otherLimitedKey: string;
  let bannedKey: string;
  const created: number[] = [];

  before(async () => {
    const url = 'url' in postgres ? postgres.url : '';
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const databaseUrl = new URL(url);
    databaseUrl.pathname = `/${database}`;
    redis = await privateRedis('binary' in redisServer ? redisServer.binary : '');
    const env = {
      DATABASE_URL: databaseUrl.href,
      REDIS_URL: redis.url,
      PETSTORE_BAN_THRESHOLD: String(BAN_THRESHOLD),
      // Every request of this suite comes from 127.0.0.1, 100 at once per instance, and closed
      // connections linger a while: the default per-address cap of 128 would answer some of them
      // 429 too_many_connections (edge-errors.test.ts covers that cap).
      PETSTORE_MAX_CONNECTIONS_PER_ADDRESS: '1000',
    };
    // `migrate` and every server migrate the new database at once; the migration lock lets one of them
    // apply it. Keys are created once it exists: `keys create` refuses a database without tables.
    const busy = ['--plan', 'enterprise', '--per-minute', '100000', '--per-day', '1000000'];
    const start = async () => {
      instances.push(await startInstance(env));
    };
    const keys = petstore(['migrate'], env).then(() =>
      Promise.all([createKey(env, busy), createKey(env), createKey(env), createKey(env)]),
    );
    await settleAll([keys, start(), start(), start()]);
    [busyKey, limitedKey, bannedKey, otherLimitedKey] = (await keys).map(({ key }) => key) as [
      string,
      string,
      string,
      string,
    ];
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await redis?.dispose();
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  });

  const at = (i: number) => instances[i % instances.length]!.url;

  it('POST /v1/pets → 201 with unique ids under 3×100 concurrent creates on all instances', async () => {
    const replies = await Promise.all(
      Array.from({ length: PER_INSTANCE * instances.length }, (_, i) =>
        call(at(i), '/v1/pets', {
          method: 'POST',
          key: busyKey,
          body: { name: `pet ${i}`, categoryId: i % 7, status: 'available' },
        }),
      ),
    );
    const failed = replies.find((reply) => reply.status !== 201);
    assert.equal(failed, undefined, `every create succeeds; got ${failed?.status} ${failed?.body}`);
    created.push(...replies.map((reply) => Number(reply.json().id)));
    assert.equal(new Set(created).size, created.length, 'every id is distinct');
  });

  it('GET /v1/pets → every pet exactly once, ascending, following rel="next" across instances', async () => {
    assert.equal(created.length, PER_INSTANCE * instances.length, 'needs the pets of the previous test');
    const seen: number[] = [];
    let path: string | undefined = '/v1/pets?limit=37';
    for (let page = 0; path !== undefined; page++) {
      assert.ok(page < 20, 'paging ends');
      const reply = await call(at(page), path, { key: busyKey });
      assert.equal(reply.status, 200);
      seen.push(...(JSON.parse(reply.body) as { id: number }[]).map((pet) => pet.id));
      path = nextLink(reply.headers);
    }
    assert.deepEqual(
      seen,
      [...created].sort((a, b) => a - b),
      'each pet once, in ascending id order',
    );
  });

  it('GET /v1/pets → a pet created on one instance is listed by the very next request to another, under concurrent creates', async () => {
    const key = busyKey;
    let writing = true;
    // Pets without a status, created on every instance meanwhile: commits race the checked ones.
    const background = instances.map(async (instance, i) => {
      for (let n = 0; writing; n++) {
        const body = { name: `background ${i}.${n}`, categoryId: 1 };
        assert.equal((await call(instance.url, '/v1/pets', { method: 'POST', key, body })).status, 201);
      }
    });
    const ids = (reply: Reply) => (JSON.parse(reply.body) as { id: number }[]).map((pet) => pet.id);
    // One chain per status, so each filtered listing grows only by the chain's own pets.
    const chains = (['available', 'pending', 'sold'] as const).map(async (status, chain) => {
      for (let round = 0; round < 15; round++) {
        const writer = at(chain + round);
        const reader = at(chain + round + 1 + (round % 2));
        // The reader's last page of this listing, read twice so the reader holds it in memory.
        let path = `/v1/pets?limit=50&status=${status}`;
        for (let next = nextLink((await call(reader, path, { key })).headers); next;) {
          path = next;
          next = nextLink((await call(reader, path, { key })).headers);
        }
        const before = ids(await call(reader, path, { key }));
        const body = { name: `chain ${chain}.${round}`, categoryId: 2, status };
        const created = await call(writer, '/v1/pets', { method: 'POST', key, body });
        assert.equal(created.status, 201);
        const id = Number(created.json().id);
        const after = await call(reader, path, { key });
        const shown = ids(after);
        if (before.length < 50) {
          assert.deepEqual(shown, [...before, id], `${status} round ${round}: listed by the next request`);
        } else {
          assert.deepEqual(shown, before, 'a full page never changes');
          assert.deepEqual(ids(await call(reader, nextLink(after.headers)!, { key })), [id]);
        }
      }
    });
    try {
      await Promise.all(chains);
    } finally {
      writing = false;
      await Promise.all(background);
    }
  });

  it('GET /v1/pets → exactly 60 of 150 concurrent requests per free key succeed across instances, two keys at once', async () => {
    // 300 requests in flight: each instance checks many of both keys in the same turns, together.
    const keys = [limitedKey, otherLimitedKey];
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) => call(at(i), '/v1/pets?limit=1', { key: keys[i % 2] })),
    );
    for (const k of [0, 1]) {
      const mine = replies.filter((_, i) => i % 2 === k);
      const statuses = mine.map((reply) => reply.status);
      assert.equal(
        statuses.filter((status) => status === 200).length,
        60,
        `key ${k}: the free plan allows 60`,
      );
      assert.equal(statuses.filter((status) => status === 429).length, 90, `key ${k}: the rest are refused`);
    }
    for (const reply of replies.filter((r) => r.status === 429)) {
      assert.match(String(reply.json().code), /^(rate_limited|temporarily_banned)$/);
      assert.equal(reply.headers.get('x-ratelimit-remaining'), '0');
    }
  });

  it('GET /v1/pets → 429 temporarily_banned on every instance after a ban made on one', async () => {
    const key = bannedKey;
    const [a, b, c] = instances.map((instance) => instance.url) as [string, string, string];
    const allowed = await Promise.all(Array.from({ length: 60 }, () => call(a, '/v1/pets?limit=1', { key })));
    assert.ok(allowed.every((reply) => reply.status === 200));
    const codes: string[] = [];
    for (let i = 0; i <= BAN_THRESHOLD; i++) {
      codes.push(String((await call(a, '/v1/pets?limit=1', { key })).json().code));
    }
    assert.deepEqual(codes, [...Array(BAN_THRESHOLD).fill('rate_limited'), 'temporarily_banned']);
    for (const base of [b, c, a]) {
      const reply = await call(base, '/v1/pets?limit=1', { key });
      assert.equal(reply.status, 429);
      assert.equal(reply.json().code, 'temporarily_banned');
      assert.ok(Number(reply.headers.get('retry-after')) > 60, 'the ban outlasts the minute window');
    }
  });
});
