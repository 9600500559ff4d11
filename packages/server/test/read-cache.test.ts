import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createReadCache } from '../src/features/pets/read-cache.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { service } from './services.ts';

const ids = (body: unknown) => (body as { id: bigint }[]).map((pet) => pet.id);

/** A database that two storages (this process's and "another process's") open, and how to remove it. */
interface SharedDatabase {
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

async function sqliteDatabase(): Promise<SharedDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-read-cache-'));
  return {
    open: () => openStoreAt(join(dir, 'petstore.db')),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

const postgres = await service('postgres');

async function postgresDatabase(): Promise<SharedDatabase> {
  const url = 'url' in postgres ? postgres.url : '';
  const schema = `petstore_test_${randomBytes(6).toString('hex')}`;
  return {
    open: async () => {
      const storage = await openStoreAt(url, { schema, poolSize: 4 });
      await storage.migrate();
      return storage;
    },
    async dispose() {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

for (const [name, makeDatabase, skip] of [
  ['SQLite', sqliteDatabase, false],
  ['PostgreSQL', postgresDatabase, 'skip' in postgres ? postgres.skip : false],
] as const) {
  describe(`read cache on ${name}: reads stay exactly consistent with acknowledged writes`, { skip }, () => {
    let database: SharedDatabase;
    let app: TestApp;
    let otherProcess: Store;

    let pageQueries = 0;

    before(async () => {
      database = await makeDatabase();
      const storage = await database.open();
      const listPets = storage.pets.list.bind(storage.pets);
      storage.pets.list = (query) => {
        pageQueries++;
        return listPets(query);
      };
      app = await makeTestApp({ storage });
      otherProcess = await database.open();
    });

    after(async () => {
      await otherProcess?.close();
      await app?.close();
      await database?.dispose();
    });

    const create = async (name: string) => {
      const response = await app.request({ method: 'POST', url: '/v1/pets', body: { name, categoryId: 1n } });
      assert.equal(response.status, 201);
      return (response.json() as { id: bigint }).id;
    };
    const createElsewhere = async (name: string, status?: 'sold') => {
      const result = await otherProcess.pets.create({ name, categoryId: 2n, ...(status && { status }) });
      assert.equal(result.kind, 'created');
      return result.kind === 'created' ? result.pet.id : -1n;
    };

    it('GET /v1/pets → a pet acknowledged with 201 is listed by the very next request', async () => {
      const before = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
      const id = await create('after a cached read');
      const afterCreate = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
      assert.deepEqual(afterCreate, [...before, id]);
    });

    it('GET /v1/pets → a pet committed by another process is listed by the next request', async () => {
      for (let round = 0; round < 20; round++) {
        const url = round % 2 === 0 ? '/v1/pets?limit=100' : '/v1/pets?limit=100&status=sold';
        const before = ids((await app.request({ url })).json());
        assert.deepEqual(ids((await app.request({ url })).json()), before, 'the repeated read is stable');
        const id = await createElsewhere(`from another process ${round}`, 'sold');
        assert.deepEqual(ids((await app.request({ url })).json()), [...before, id], `round ${round}`);
      }
    });

    it('GET /v1/pets → a repeated read is answered from memory, without querying the page again', async () => {
      const first = await app.request({ url: '/v1/pets?limit=3&status=sold' });
      const queries = pageQueries;
      const again = await app.request({ url: '/v1/pets?limit=3&status=sold' });
      assert.equal(again.body, first.body);
      assert.equal(pageQueries, queries);
    });

    it('GET /v1/pets/{id} → 404 is never cached: the pet is found once it exists', async () => {
      const newest = (await otherProcess.pets.list({ limit: 100_000 })).at(-1)?.id ?? 0n;
      const next = newest + 1n;
      assert.equal((await app.request({ url: `/v1/pets/${next}` })).status, 404);
      const id = await create('was missing');
      assert.equal(id, next);
      assert.equal((await app.request({ url: `/v1/pets/${id}` })).status, 200);
    });

    it('GET /v1/pets → a full page keeps its content and the last page grows as pets are added', async () => {
      while ((await otherProcess.pets.count()) < 5) await create('filler');
      const first = await app.request({ url: '/v1/pets?limit=2' });
      const link = first.headers.link!;
      for (let i = 0; i < 3; i++) await create(`grow ${i}`);
      await createElsewhere('grow elsewhere');
      const again = await app.request({ url: '/v1/pets?limit=2' });
      assert.equal(again.body, first.body);
      assert.equal(again.headers.link, link);
      const all = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
      assert.equal(all.length, await otherProcess.pets.count());
    });
  });
}

describe('createReadCache', () => {
  it('putPage → a page read before a write is not stored after it', () => {
    const cache = createReadCache({ pages: true });
    cache.sync(1);
    const generation = cache.generation();
    cache.written();
    cache.putPage('k', { body: '[]', nextCursor: undefined }, generation);
    assert.equal(cache.getPage('k'), undefined);
  });

  it('sync → a changed token drops the growing last pages but keeps full ones', () => {
    const cache = createReadCache({ pages: true });
    cache.sync(1n);
    cache.putPage('last', { body: '[1]', nextCursor: undefined }, cache.generation());
    cache.putPage('full', { body: '[1,2]', nextCursor: 'c' }, cache.generation());
    cache.sync(1n);
    assert.deepEqual(cache.getPage('last'), { body: '[1]', nextCursor: undefined });
    cache.sync(2n);
    assert.equal(cache.getPage('last'), undefined);
    assert.deepEqual(cache.getPage('full'), { body: '[1,2]', nextCursor: 'c' });
  });

  it('pages: false → nothing is cached (storages whose ids may become visible out of order)', () => {
    const cache = createReadCache({ pages: false });
    cache.sync(undefined);
    cache.putPage('full', { body: '[1,2]', nextCursor: 'c' }, cache.generation());
    assert.equal(cache.getPage('full'), undefined);
  });
});
