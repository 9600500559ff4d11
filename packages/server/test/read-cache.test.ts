import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createReadCache } from '../src/pets/read-cache.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import type { Storage } from '../src/storage/repository.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const ids = (body: unknown) => (body as { id: bigint }[]).map((pet) => pet.id);

describe('read cache: reads stay exactly consistent with acknowledged writes', () => {
  let dir: string;
  let app: TestApp;
  let otherProcess: Storage;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-read-cache-'));
    const file = join(dir, 'petstore.db');
    app = await makeTestApp({ storage: await openStorage(file) });
    otherProcess = await openStorage(file);
  });

  after(async () => {
    await otherProcess.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  const create = async (name: string) => {
    const response = await app.request({ method: 'POST', url: '/v1/pets', body: { name, categoryId: 1n } });
    assert.equal(response.status, 201);
    return (response.json() as { id: bigint }).id;
  };

  it('GET /v1/pets → a pet acknowledged with 201 is listed by the very next request', async () => {
    const before = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
    const id = await create('after a cached read');
    const afterCreate = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
    assert.deepEqual(afterCreate, [...before, id]);
  });

  it('GET /v1/pets → a pet committed by another process is listed by the next request', async () => {
    const before = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
    const result = await otherProcess.createPet({ name: 'from another worker', categoryId: 2n });
    assert.equal(result.kind, 'created');
    const afterCommit = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
    assert.deepEqual(afterCommit, [...before, result.kind === 'created' ? result.pet.id : -1n]);
  });

  it('GET /v1/pets/{id} → 404 is never cached: the pet is found once it exists', async () => {
    const next = (await otherProcess.countPets()) + 1;
    assert.equal((await app.request({ url: `/v1/pets/${next}` })).status, 404);
    const id = await create('was missing');
    assert.equal(id, BigInt(next));
    assert.equal((await app.request({ url: `/v1/pets/${id}` })).status, 200);
  });

  it('GET /v1/pets → a full page keeps its content and the last page grows as pets are added', async () => {
    while ((await otherProcess.countPets()) < 5) await create('filler');
    const first = await app.request({ url: '/v1/pets?limit=2' });
    const link = first.headers.link!;
    for (let i = 0; i < 3; i++) await create(`grow ${i}`);
    const again = await app.request({ url: '/v1/pets?limit=2' });
    assert.equal(again.body, first.body);
    assert.equal(again.headers.link, link);
    const all = ids((await app.request({ url: '/v1/pets?limit=100' })).json());
    assert.equal(all.length, await otherProcess.countPets());
  });
});

describe('createReadCache', () => {
  it('putPage → a page read before a write is not stored after it', () => {
    const cache = createReadCache({ changeToken: () => 1, pages: true });
    const generation = cache.generation();
    cache.written();
    cache.putPage('k', { body: '[]', nextCursor: undefined }, generation);
    assert.equal(cache.getPage('k'), undefined);
  });

  it('sync → a changed token drops the growing last pages but keeps full ones', () => {
    let token = 1;
    const cache = createReadCache({ changeToken: () => token, pages: true });
    cache.putPage('last', { body: '[1]', nextCursor: undefined }, cache.generation());
    cache.putPage('full', { body: '[1,2]', nextCursor: 'c' }, cache.generation());
    token = 2;
    cache.sync();
    assert.equal(cache.getPage('last'), undefined);
    assert.deepEqual(cache.getPage('full'), { body: '[1,2]', nextCursor: 'c' });
  });

  it('pages: false → nothing is cached (storages whose ids may become visible out of order)', () => {
    const cache = createReadCache({ changeToken: () => undefined, pages: false });
    cache.putPage('full', { body: '[1,2]', nextCursor: 'c' }, cache.generation());
    assert.equal(cache.getPage('full'), undefined);
  });
});
