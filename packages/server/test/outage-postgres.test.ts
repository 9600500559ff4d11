import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKey,
  petstore,
  eventually,
  type Instance,
  nextLink,
  type Reply,
  settleAll,
  startInstance,
} from './scaleout-instance.ts';
import { type PrivatePostgres, privatePostgres, privatePostgresAvailable } from './scaleout-servers.ts';

// One instance on a private PostgreSQL cluster, which the test stops (as a crash would) and starts again
// while the instance serves, and a second one that only lists (holding pages in memory across the
// outage). Rate limits stay in each instance's memory.
const cluster = privatePostgresAvailable('PostgreSQL outage suite');
const skip = 'skip' in cluster ? cluster.skip : false;

const OUTAGE_ANSWER_MS = 5_000;
/** Longer than the authenticator caches a key record, so the key lookup itself meets the outage. */
const KEY_CACHE_EXPIRY_MS = 1_100;

describe('PostgreSQL outage: two instances whose database goes away and comes back', { skip }, () => {
  let postgres: PrivatePostgres | undefined;
  let instance: Instance | undefined;
  let reader: Instance | undefined;
  let key: string;
  /** Banned before the outage: the ban must hold after it. */
  let bannedKey: string;
  const acknowledged: number[] = [];

  before(async () => {
    postgres = await privatePostgres('binDir' in cluster ? cluster.binDir : '');
    // Every client here is one loopback address: lift the per-address connection cap above the load.
    const env = {
      DATABASE_URL: postgres.url,
      PETSTORE_BAN_THRESHOLD: '2',
      PETSTORE_MAX_CONNECTIONS_PER_ADDRESS: '1000',
    };
    const plan = ['--plan', 'enterprise', '--per-minute', '100000', '--per-day', '1000000'];
    const start = async () => {
      instance = await startInstance(env);
      reader = await startInstance(env);
    };
    // keys create refuses a database without tables: `migrate` makes it, racing the server's own start.
    const migrated = petstore(['migrate'], env);
    const created = migrated.then(() => createKey(env, plan));
    const limited = migrated.then(() =>
      createKey(env, ['--plan', 'enterprise', '--per-minute', '1', '--per-day', '1000']),
    );
    await settleAll([created, limited, start()]);
    ({ key } = await created);
    ({ key: bannedKey } = await limited);
  });

  after(async () => {
    await instance?.stop();
    await reader?.stop();
    await postgres?.dispose();
  });

  const create = (i: number) =>
    call(instance!.url, '/v1/pets', { method: 'POST', key, body: { name: `pet ${i}`, categoryId: 1 } });
  const acknowledge = (replies: Reply[]) => {
    for (const reply of replies) if (reply.status === 201) acknowledged.push(Number(reply.json().id));
  };

  function assertUnavailable(reply: Reply, what: string): void {
    assert.equal(reply.status, 503, `${what}: ${reply.body}`);
    assert.equal(reply.json().code, 'service_unavailable');
    assert.ok(reply.elapsedMs < OUTAGE_ANSWER_MS, `${what} answered in ${Math.round(reply.elapsedMs)} ms`);
  }

  const bannedAnswer = async () =>
    (await call(instance!.url, '/v1/pets?limit=1', { key: bannedKey })).json().code;

  it('GET /v1/pets → 429 temporarily_banned for a key that kept sending past its limit, before the outage', async () => {
    const codes = [];
    for (let i = 0; i < 4; i++) {
      codes.push((await call(instance!.url, '/v1/pets?limit=1', { key: bannedKey })).status);
    }
    assert.deepEqual(codes, [200, 429, 429, 429]);
    assert.equal(await bannedAnswer(), 'temporarily_banned');
  });

  /** Every pet id, following rel="next" from the first page of the listing. */
  async function listAll(from: Instance): Promise<number[]> {
    const ids: number[] = [];
    for (let path: string | undefined = '/v1/pets?limit=100'; path !== undefined;) {
      const reply = await call(from.url, path, { key });
      assert.equal(reply.status, 200);
      ids.push(...(JSON.parse(reply.body) as { id: number }[]).map((pet) => pet.id));
      path = nextLink(reply.headers);
    }
    return ids;
  }

  it('POST /v1/pets → 201 while PostgreSQL answers; the other instance lists them', async () => {
    const replies = await Promise.all(Array.from({ length: 250 }, (_, i) => create(i)));
    assert.deepEqual(new Set(replies.map((reply) => reply.status)), new Set([201]));
    acknowledge(replies);
    assert.deepEqual(
      await listAll(reader!),
      acknowledged.toSorted((a, b) => a - b),
    );
  });

  it('GET/POST /v1/pets → 503 service_unavailable within 5 s while PostgreSQL is down; /healthz 200', async () => {
    // Creates keep coming on 32 connections (so they are group-committed in batches) when the server
    // stops as a crash would; each connection sends until it meets the outage. Writes racing the crash
    // may land or fail; whichever got a 201 must survive it.
    const racing = Array.from({ length: 32 }, async (_, connection) => {
      const replies: Reply[] = [];
      for (let n = 0; replies.at(-1)?.status !== 503; n++) {
        const reply = await create(1_000 * (connection + 1) + n);
        assert.ok(reply.status === 201 || reply.status === 503, `${reply.status} ${reply.body}`);
        replies.push(reply);
      }
      return replies;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await postgres!.stop('immediate');
    const raced = (await Promise.all(racing)).flat();
    assert.ok(raced.filter((reply) => reply.status === 201).length > 32, 'creates were under way');
    acknowledge(raced);

    const both = () =>
      Promise.all([
        ...Array.from({ length: 5 }, (_, i) => create(200 + i)),
        ...Array.from({ length: 5 }, () => call(instance!.url, '/v1/pets?limit=5', { key })),
      ]);
    for (const reply of await both()) assertUnavailable(reply, 'a /v1/pets request');
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_EXPIRY_MS));
    for (const reply of await both()) assertUnavailable(reply, 'a /v1/pets request needing the key lookup');
    assertUnavailable(await call(instance!.url, '/readyz'), '/readyz');
    const health = await call(instance!.url, '/healthz');
    assert.equal(health.status, 200);
  });

  it('GET /v1/pets → 200 again without a restart once PostgreSQL is back, every acknowledged pet listed by the other instance', async () => {
    await postgres!.start();
    await eventually('requests succeed after PostgreSQL starts', 20_000, async () => {
      return (await call(instance!.url, '/v1/pets?limit=1', { key })).status === 200;
    });
    assert.equal((await call(instance!.url, '/readyz')).status, 200);
    assert.equal(await bannedAnswer(), 'temporarily_banned', 'the ban holds after the outage');
    const after = await create(300);
    assert.equal(after.status, 201);
    acknowledge([after]);

    await eventually('the other instance lists again', 20_000, async () => {
      return (await call(reader!.url, '/v1/pets?limit=1', { key })).status === 200;
    });
    const listed = new Set(await listAll(reader!));
    const lost = acknowledged.filter((id) => !listed.has(id));
    assert.deepEqual(lost, [], `all ${acknowledged.length} acknowledged pets are listed`);
  });
});
