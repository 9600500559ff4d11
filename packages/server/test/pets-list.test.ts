import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../src/features/store.ts';
import type { PetStatus } from '../src/storage/records.ts';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';

interface WirePet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STATUSES: readonly (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

/** Seeds `count` pets straight into storage, cycling through the statuses (and "none"). */
async function seed(storage: Store, count: number, from = 0): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (let i = from; i < from + count; i++) {
    const status = STATUSES[i % STATUSES.length];
    const result = await storage.pets.create({
      name: `pet ${i}`,
      categoryId: BigInt(i),
      ...(status && { status }),
    });
    if (result.kind === 'created') ids.push(result.pet.id);
  }
  return ids;
}

/** The target of `Link: <…>; rel="next"`, or undefined when the header is absent. */
function nextUrl(response: TestResponse): string | undefined {
  const link = response.headers.link;
  if (link === undefined) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  assert.ok(match, `Link is not a single rel="next" link: ${link}`);
  return match[1];
}

/** Follows rel="next" from `url` to the last page; `between` runs after each page. */
async function walk(app: TestApp, url: string, between?: () => Promise<void>): Promise<WirePet[][]> {
  const pages: WirePet[][] = [];
  let next: string | undefined = url;
  while (next !== undefined) {
    const response = await app.request({ url: next });
    assert.equal(response.status, 200, response.body);
    pages.push(response.json() as WirePet[]);
    next = nextUrl(response);
    await between?.();
    assert.ok(pages.length < 1000, 'paging does not end');
  }
  return pages;
}

const idsOf = (pets: WirePet[]) => pets.map((pet) => pet.id);
const sizesOf = (pages: WirePet[][]) => pages.map((page) => page.length);
const cursorOf = (response: TestResponse) =>
  new URL(nextUrl(response)!, 'http://x').searchParams.get('cursor')!;
const withStatus = (ids: bigint[], status: PetStatus) =>
  ids.filter((_, i) => STATUSES[i % STATUSES.length] === status);

async function expectInvalid(app: TestApp, query: string, param: string, code = 'invalid_parameter') {
  const response = await app.request({ url: `/v1/pets?${query}` });
  assert.equal(response.status, 400, `${query}: ${response.body}`);
  const { code: actual, param: named } = response.json() as { code: string; param: string };
  assert.deepEqual({ code: actual, param: named }, { code, param }, query);
}

const BAD_LIMITS = ['0', '101', '-1', '1.5', '', 'abc', '05', '1e1', '1.0', '+5', ' 5', '0x10'];

describe('GET /v1/pets', () => {
  let app: TestApp;
  let ids: bigint[];
  before(async () => {
    app = await makeTestApp();
    ids = await seed(app.storage, 25);
  });
  after(() => app.close());

  it('GET /v1/pets → 200 with 20 pets and a next Link when limit is not given', async () => {
    const response = await app.request({ url: '/v1/pets' });
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type']!, /^application\/json/);
    const pets = response.json() as WirePet[];
    assert.deepEqual(idsOf(pets), ids.slice(0, 20));
    assert.deepEqual(pets[0], { id: ids[0], name: 'pet 0', categoryId: 0n, status: 'available' });
    assert.equal(Object.hasOwn(pets[3]!, 'status'), false, 'a pet without status has no status key');
    assert.doesNotMatch(response.body, /null/);
    assert.match(nextUrl(response)!, /^\/v1\/pets\?limit=20&cursor=[A-Za-z0-9_-]+$/);
  });

  for (const limit of [1, 100]) {
    it(`GET /v1/pets → 200 with at most ${limit} pet(s) when limit=${limit}`, async () => {
      const response = await app.request({ url: `/v1/pets?limit=${limit}` });
      assert.equal(response.status, 200);
      assert.equal((response.json() as WirePet[]).length, Math.min(limit, ids.length));
      assert.equal(nextUrl(response) !== undefined, limit < ids.length);
    });
  }

  for (const value of [...BAD_LIMITS, '99999999999999999999']) {
    it(`GET /v1/pets → 400 invalid_parameter when limit=${JSON.stringify(value)}`, async () => {
      await expectInvalid(app, `limit=${encodeURIComponent(value)}`, 'limit');
    });
  }

  it('GET /v1/pets → 400 invalid_parameter when limit is repeated', async () => {
    await expectInvalid(app, 'limit=5&limit=5', 'limit');
  });

  it('GET /v1/pets → 400 invalid_parameter when status is repeated', async () => {
    await expectInvalid(app, 'status=sold&status=sold', 'status');
  });

  for (const name of ['offset', 'page', 'Limit', 'constructor', '__proto__']) {
    it(`GET /v1/pets → 400 invalid_parameter naming the unknown parameter ${name}`, async () => {
      const response = await app.request({ url: `/v1/pets?${name}=1` });
      assert.equal(response.status, 400);
      const body = response.json() as { code: string; param: string; message: string };
      assert.equal(body.code, 'invalid_parameter');
      assert.equal(body.param, name);
      assert.ok(body.message.includes(name), body.message);
    });
  }

  for (const status of ['available', 'pending', 'sold'] as const) {
    it(`GET /v1/pets → 200 with only ${status} pets when status=${status}`, async () => {
      const response = await app.request({ url: `/v1/pets?status=${status}&limit=100` });
      assert.equal(response.status, 200);
      const pets = response.json() as WirePet[];
      assert.ok(pets.length > 0);
      assert.ok(pets.every((pet) => pet.status === status));
      assert.deepEqual(idsOf(pets), withStatus(ids, status));
    });
  }

  for (const value of ['unknown', 'Available', 'SOLD', '', 'null']) {
    it(`GET /v1/pets → 400 invalid_parameter when status=${JSON.stringify(value)}`, async () => {
      await expectInvalid(app, `status=${value}`, 'status');
    });
  }

  it('GET /v1/pets → every pet exactly once in ascending id order when following rel="next"', async () => {
    const pages = await walk(app, '/v1/pets?limit=7');
    assert.deepEqual(sizesOf(pages), [7, 7, 7, 4]);
    assert.deepEqual(idsOf(pages.flat()), ids);
  });

  it('GET /v1/pets → no Link on the last page when it is exactly full', async () => {
    const pages = await walk(app, '/v1/pets?limit=5');
    assert.deepEqual(sizesOf(pages), [5, 5, 5, 5, 5]);
  });

  it('GET /v1/pets → the next Link keeps limit and status', async () => {
    const response = await app.request({ url: '/v1/pets?status=sold&limit=2' });
    assert.match(nextUrl(response)!, /^\/v1\/pets\?limit=2&status=sold&cursor=[A-Za-z0-9_-]+$/);
    const pages = await walk(app, '/v1/pets?status=sold&limit=2');
    assert.deepEqual(idsOf(pages.flat()), withStatus(ids, 'sold'));
    assert.ok(pages.flat().every((pet) => pet.status === 'sold'));
  });

  it('GET /v1/pets → 400 invalid_cursor when a cursor is sent with another status', async () => {
    const cursor = cursorOf(await app.request({ url: '/v1/pets?limit=2' }));
    await expectInvalid(app, `status=sold&cursor=${cursor}`, 'cursor', 'invalid_cursor');
    const soldCursor = cursorOf(await app.request({ url: '/v1/pets?limit=2&status=sold' }));
    await expectInvalid(app, `status=pending&cursor=${soldCursor}`, 'cursor', 'invalid_cursor');
    await expectInvalid(app, `cursor=${soldCursor}`, 'cursor', 'invalid_cursor');
  });

  it('GET /v1/pets → 400 invalid_cursor when any character of a cursor is changed', async () => {
    const cursor = cursorOf(await app.request({ url: '/v1/pets?limit=3' }));
    for (let i = 0; i < cursor.length; i++) {
      const swapped = cursor[i] === 'A' ? 'B' : 'A';
      const tampered = `${cursor.slice(0, i)}${swapped}${cursor.slice(i + 1)}`;
      await expectInvalid(app, `limit=3&cursor=${tampered}`, 'cursor', 'invalid_cursor');
    }
  });

  it('GET /v1/pets → 400 invalid_cursor when only the unused low bits of the last character change', async () => {
    // base64url's last character may carry bits that decode to nothing: a lenient decoder reads a
    // different cursor as the same bytes. Every other last character must be refused.
    for (const limit of [1, 2, 3, 4]) {
      const cursor = cursorOf(await app.request({ url: `/v1/pets?limit=${limit}` }));
      for (const last of BASE64URL.replace(cursor.at(-1)!, '')) {
        await expectInvalid(
          app,
          `limit=${limit}&cursor=${cursor.slice(0, -1)}${last}`,
          'cursor',
          'invalid_cursor',
        );
      }
    }
  });

  for (const garbage of ['x', 'Zm9v', 'not a cursor', '!!!', 'YzEuKi4xLmFiYw', 'a'.repeat(500), '%00']) {
    it(`GET /v1/pets → 400 invalid_cursor when cursor=${JSON.stringify(garbage.slice(0, 20))}`, async () => {
      await expectInvalid(app, `cursor=${encodeURIComponent(garbage)}`, 'cursor', 'invalid_cursor');
    });
  }

  it('GET /v1/pets → 400 when cursor is empty', async () => {
    const response = await app.request({ url: '/v1/pets?cursor=' });
    assert.equal(response.status, 400);
    assert.equal((response.json() as { param: string }).param, 'cursor');
  });
});

describe('GET /v1/pets paging while pets are added', () => {
  it('GET /v1/pets → every pet that existed at the start exactly once, in order, when pets are created between pages', async () => {
    const app = await makeTestApp();
    try {
      const before = await seed(app.storage, 12);
      let added = 12;
      const pages = await walk(app, '/v1/pets?limit=4', async () => {
        await seed(app.storage, 2, added);
        added += 2;
      });
      const seen = idsOf(pages.flat());
      assert.deepEqual(seen.slice(0, before.length), before);
      assert.equal(new Set(seen).size, seen.length, 'no pet is seen twice');
      assert.deepEqual(
        seen,
        seen.toSorted((a, b) => (a < b ? -1 : 1)),
      );
    } finally {
      await app.close();
    }
  });

  it('GET /v1/pets?status=pending → stable keyset paging when pets are created between pages', async () => {
    const app = await makeTestApp();
    try {
      const before = await seed(app.storage, 16);
      const pending = withStatus(before, 'pending');
      let added = 16;
      const pages = await walk(app, '/v1/pets?status=pending&limit=1', async () => {
        if (added < 40) {
          await seed(app.storage, 4, added);
          added += 4;
        }
      });
      const seen = pages.flat();
      assert.ok(seen.every((pet) => pet.status === 'pending'));
      assert.deepEqual(idsOf(seen.slice(0, pending.length)), pending);
      assert.equal(new Set(idsOf(seen)).size, seen.length);
      assert.equal(seen.length, (await app.storage.pets.list({ status: 'pending', limit: 1000 })).length);
    } finally {
      await app.close();
    }
  });
});

describe('GET /v1/pets on an empty store', () => {
  it('GET /v1/pets → 200 [] without Link when no pet exists', async () => {
    const app = await makeTestApp();
    try {
      for (const url of ['/v1/pets', '/v1/pets?status=sold', '/v1/pets?limit=1']) {
        const response = await app.request({ url });
        assert.equal(response.status, 200);
        assert.equal(response.body, '[]');
        assert.equal(response.headers.link, undefined);
      }
    } finally {
      await app.close();
    }
  });
});
