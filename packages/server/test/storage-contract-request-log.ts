import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LoggedRequest, StoredRequest } from '../src/features/requests/request-log-records.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';
import { createUsageTally, rollUp } from '../src/features/requests/usage-records.ts';

const T0 = Date.UTC(2026, 0, 10, 12);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function logged(overrides: Partial<LoggedRequest> = {}): LoggedRequest {
  return {
    projectId: 'prj_acme',
    at: T0,
    requestId: 'req-1',
    keyId: 'key_a',
    keyLabel: 'Storefront',
    operation: 'listPets',
    method: 'GET',
    path: '/v1/pets?limit=20',
    status: 200,
    code: null,
    latencyMs: 1.25,
    address: '192.0.2.7',
    message: null,
    ...overrides,
  };
}

const withoutId = ({ id: _id, ...rest }: StoredRequest): LoggedRequest => rest;

export function requestLogContract(fixture: () => StorageFixture): void {
  const setUp = async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    await storage.projects.create(project('other', { plan: 'pro' }));
    return storage;
  };

  it('requestLog.write → every field kept; list → newest first, ties by newest row; others see it', async () => {
    const storage = await setUp();
    const rows = [
      logged({ requestId: 'a', at: T0 }),
      logged({
        ...{ requestId: 'b', at: T0 + 1, status: 404, code: 'not_found', keyLabel: null, latencyMs: 0.5 },
        message: 'pet 7 does not exist',
      }),
      logged({ requestId: 'c', at: T0 + 1, method: 'POST', operation: 'createPet', path: '/v1/pets' }),
      logged({ requestId: 'd', projectId: 'prj_other' }),
    ];
    await storage.requestLog.write(rows);
    await storage.requestLog.write([]);
    const listed = await storage.requestLog.list({ projectId: 'prj_acme', limit: 10 });
    assert.deepEqual(listed.map(withoutId), [rows[2], rows[1], rows[0]]);
    const other = await fixture().open();
    assert.deepEqual((await other.requestLog.list({ projectId: 'prj_other', limit: 10 })).map(withoutId), [
      rows[3],
    ]);
  });

  it('requestLog.write of a row counting many refusals → its count kept by list and get, summed by usage', async () => {
    const storage = await setUp();
    const hour = Math.floor(T0 / HOUR) * HOUR;
    const refusals = logged({ requestId: 'r', status: 429, code: 'temporarily_banned', count: 4_321 });
    await storage.requestLog.write([logged({ requestId: 'one' }), refusals]);
    const [listed, single] = await storage.requestLog.list({ projectId: 'prj_acme', status: 429, limit: 10 });
    assert.equal(single, undefined);
    assert.deepEqual(withoutId(listed!), refusals);
    assert.equal((await storage.requestLog.get('prj_acme', listed!.id))!.count, 4_321);
    const plain = (await storage.requestLog.list({ projectId: 'prj_acme', status: 200, limit: 1 }))[0]!;
    assert.equal(plain.count, undefined, 'a row of one request carries no count');
    const usage = await storage.requestLog.usage({ projectId: 'prj_acme', since: hour, until: hour + HOUR });
    assert.equal(
      usage.filter((row) => row.statusClass === '429').reduce((sum, row) => sum + row.count, 0),
      4_321,
    );
  });

  it('requestLog.write of a row counting refusals of several keys → one row with the total; usage counts each key its own', async () => {
    const storage = await setUp();
    const hour = Math.floor(T0 / HOUR) * HOUR;
    const countsByKey = new Map([
      ['key_a', 3],
      ['key_b', 5],
      ['key_c', 2],
    ]);
    await storage.requestLog.write([
      logged({ requestId: 'r', status: 429, code: 'rate_limited', count: 10, countsByKey }),
    ]);
    const rows = await storage.requestLog.list({ projectId: 'prj_acme', limit: 10 });
    assert.deepEqual(
      rows.map((row) => [row.keyId, row.count, row.countsByKey]),
      [['key_a', 10, undefined]],
    );
    const usage = await storage.requestLog.usage({
      projectId: 'prj_acme',
      since: hour,
      until: hour + HOUR,
      byKey: true,
    });
    const perKey = new Map<string, number>();
    for (const row of usage) perKey.set(row.keyId!, (perKey.get(row.keyId!) ?? 0) + row.count);
    assert.deepEqual([...perKey].sort(), [...countsByKey].sort());
  });

  it('requestLog.write → any text kept exactly: quotes, backslashes, control characters, accents, emoji, large and fractional numbers', async () => {
    const storage = await setUp();
    const row = logged({
      requestId: 'req "quoted" \\ back\\slash',
      keyLabel:
        'Ünïcödé 🐶 label, with \'quotes\' and "doubles" and a tab\tinside, a line\r\nbreak, \\N, \x1e\x1f\x01',
      path: '/v1/pets?name=%22Rex%22&x=\\u0041',
      at: 8_640_000_000_000 - 1,
      latencyMs: 12345.67,
      address: '2001:db8::1',
    });
    // Another project's row in the same write: two batches side by side.
    const other = logged({ projectId: 'prj_other', keyLabel: '\x1e', path: '/v1/pets?q=\x1e' });
    await storage.requestLog.write([row, other]);
    const [listed] = await storage.requestLog.list({ projectId: 'prj_acme', limit: 1 });
    assert.deepEqual(withoutId(listed!), row);
    const [otherListed] = await storage.requestLog.list({ projectId: 'prj_other', limit: 1 });
    assert.deepEqual(withoutId(otherListed!), other);
  });

  it('requestLog.list → filters by key, status class or code, operation, request id and time range', async () => {
    const storage = await setUp();
    await storage.requestLog.write([
      logged({ requestId: 'ok', at: T0, status: 201, operation: 'createPet' }),
      logged({ requestId: 'bad', at: T0 + 1, status: 400, code: 'invalid_parameter', keyId: 'key_b' }),
      logged({ requestId: 'limited', at: T0 + 2, status: 429, code: 'rate_limited' }),
      logged({ requestId: 'broken', at: T0 + 3, status: 503, code: 'service_unavailable' }),
      logged({ requestId: 'missing', at: T0 + 4, status: 404, code: 'not_found', operation: 'getPet' }),
    ]);
    const ids = async (query: Partial<Parameters<typeof storage.requestLog.list>[0]>) =>
      (await storage.requestLog.list({ projectId: 'prj_acme', limit: 10, ...query })).map((r) => r.requestId);
    assert.deepEqual(await ids({ status: '2xx' }), ['ok']);
    // 4xx leaves 429 to its own class, as the usage charts count them.
    assert.deepEqual(await ids({ status: '4xx' }), ['missing', 'bad']);
    assert.deepEqual(await ids({ status: '429' }), ['limited']);
    assert.deepEqual(await ids({ status: '5xx' }), ['broken']);
    assert.deepEqual(await ids({ status: 404 }), ['missing']);
    assert.deepEqual(await ids({ keyId: 'key_b' }), ['bad']);
    assert.deepEqual(await ids({ operation: 'getPet' }), ['missing']);
    assert.deepEqual(await ids({ requestId: 'limited' }), ['limited']);
    assert.deepEqual(await ids({ since: T0 + 1, until: T0 + 3 }), ['limited', 'bad']);
    assert.deepEqual(await ids({ keyId: 'key_a', status: '4xx', since: T0 + 3 }), ['missing']);
    assert.deepEqual(await ids({ keyId: 'key_nobody' }), []);
  });

  it('requestLog.list → by a request id prefix of 8+ characters: every request whose UUIDv7 id starts so, newest first', async () => {
    const storage = await setUp();
    const ids = [
      '019ab697-e87b-7000-93f3-cdc1ba6e3f2d',
      '019ab697-e87b-7001-8000-000000000001',
      '019ab697-f000-7000-8000-000000000002',
      '019ab698-0000-7000-8000-000000000003',
    ];
    await storage.requestLog.write([
      ...ids.map((requestId, i) => logged({ requestId, at: T0 + i })),
      logged({ requestId: '019ab697-client-chosen', at: T0 + 9 }),
      logged({ requestId: ids[0]!, at: T0 + 5, projectId: 'prj_other' }),
    ]);
    const found = async (requestIdPrefix: string, extra: object = {}) =>
      (await storage.requestLog.list({ projectId: 'prj_acme', limit: 10, requestIdPrefix, ...extra })).map(
        (r) => r.requestId,
      );
    assert.deepEqual(await found('019ab697'), [ids[2], ids[1], ids[0]]);
    assert.deepEqual(await found('019ab697-e87b'), [ids[1], ids[0]]);
    assert.deepEqual(await found('019ab697-e87b-7000'), [ids[0]]);
    assert.deepEqual(await found(ids[3]!), [ids[3]]);
    assert.deepEqual(await found('019ab697', { limit: 1 }), [ids[2]]);
    assert.deepEqual(await found('019ab697', { status: '5xx' }), []);
    assert.deepEqual(await found('019ab699'), []);
  });

  it('requestLog.list → keyset pages cover every row once, across rows of one instant', async () => {
    const storage = await setUp();
    const rows = Array.from({ length: 7 }, (_, i) =>
      logged({ requestId: `r${i}`, at: T0 + Math.floor(i / 3) }),
    );
    await storage.requestLog.write(rows);
    const seen: string[] = [];
    let before: { at: number; id: string } | undefined;
    for (;;) {
      const page = await storage.requestLog.list({ projectId: 'prj_acme', limit: 2, before });
      seen.push(...page.map((row) => row.requestId));
      if (page.length < 2) break;
      const last = page.at(-1)!;
      before = { at: last.at, id: last.id };
    }
    assert.deepEqual(seen, ['r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
  });

  it('requestLog.pages → every matching row once, newest first, across batches of writes whose times overlap', async () => {
    const storage = await setUp();
    // Three writes (as three instances' batches) interleaved in time, over several batches each.
    const writes = [0, 1, 2].map((w) =>
      Array.from({ length: 600 }, (_, i) =>
        logged({ requestId: `w${w}-${i}`, at: T0 + i * 3 + w, status: i % 5 === 0 ? 404 : 200 }),
      ),
    );
    for (const rows of writes) await storage.requestLog.write(rows);
    await storage.requestLog.write([logged({ projectId: 'prj_other', requestId: 'theirs', at: T0 + 5 })]);
    const expected = writes
      .flat()
      .sort((a, b) => b.at - a.at)
      .map((row) => row.requestId);
    const walk = async (query: Parameters<typeof storage.requestLog.pages>[0], pageRows: number) => {
      const pages: string[][] = [];
      for await (const page of storage.requestLog.pages(query, pageRows))
        pages.push(page.map((row) => row.requestId));
      return pages;
    };
    const pages = await walk({ projectId: 'prj_acme' }, 100);
    assert.deepEqual(pages.flat(), expected);
    assert.deepEqual(
      pages.map((page) => page.length),
      Array.from({ length: 18 }, () => 100),
    );
    const filtered = await walk({ projectId: 'prj_acme', status: 404, since: T0 + 900 }, 50);
    assert.deepEqual(
      filtered.flat(),
      writes
        .flat()
        .filter((row) => row.status === 404 && row.at >= T0 + 900)
        .sort((a, b) => b.at - a.at)
        .map((row) => row.requestId),
    );
    assert.deepEqual(await walk({ projectId: 'prj_acme', requestId: 'w1-7' }, 100), [['w1-7']]);
    assert.deepEqual(await walk({ projectId: 'prj_nobody' }, 100), []);
  });

  it('requestLog.get → the row of this project by id; another project, unknown or malformed ids → undefined', async () => {
    const storage = await setUp();
    await storage.requestLog.write([
      logged({ requestId: 'mine' }),
      logged({ requestId: 'theirs', projectId: 'prj_other' }),
    ]);
    const [mine] = await storage.requestLog.list({ projectId: 'prj_acme', limit: 1 });
    const [theirs] = await storage.requestLog.list({ projectId: 'prj_other', limit: 1 });
    assert.equal((await storage.requestLog.get('prj_acme', mine!.id))?.requestId, 'mine');
    assert.equal(await storage.requestLog.get('prj_acme', theirs!.id), undefined);
    assert.equal(await storage.requestLog.get('prj_acme', '999999999'), undefined);
    assert.equal(await storage.requestLog.get('prj_acme', 'x1; DROP TABLE request_log'), undefined);
    assert.equal(await storage.requestLog.get('prj_acme', '99999999999999999999999'), undefined);
    assert.equal(await storage.requestLog.get('prj_acme', '9999999999999999999'), undefined);
  });

  it('requestLog.purge → for every plan, a request goes once its retention has passed, by the end of the day after; never before', async () => {
    const storage = await setUp();
    await storage.projects.create(project('big', { plan: 'business' }));
    const day = Math.floor(T0 / DAY) * DAY;
    const now = day + 40 * DAY + HOUR;
    await storage.requestLog.write([
      // Free keeps a day: day 38's requests expire at the start of day 40.
      logged({ requestId: 'free-gone', at: day + 38 * DAY + 23 * HOUR }),
      logged({ requestId: 'free-kept', at: day + 39 * DAY }),
      logged({ requestId: 'pro-gone', projectId: 'prj_other', at: day + 32 * DAY + 5 }),
      logged({ requestId: 'pro-kept', projectId: 'prj_other', at: day + 33 * DAY }),
      logged({ requestId: 'pro-ancient', projectId: 'prj_other', at: now - 35 * DAY }),
      logged({ requestId: 'big-gone', projectId: 'prj_big', at: day + 9 * DAY + 23 * HOUR }),
      logged({ requestId: 'big-kept', projectId: 'prj_big', at: day + 10 * DAY }),
    ]);
    // Just before day 40 starts, only the ancient one has expired.
    assert.equal(await storage.requestLog.purge(day + 40 * DAY - 1), 1);
    assert.equal(await storage.requestLog.purge(now), 3);
    const left = async (projectId: string) =>
      (await storage.requestLog.list({ projectId, limit: 10 })).map((row) => row.requestId);
    assert.deepEqual(await left('prj_acme'), ['free-kept']);
    assert.deepEqual(await left('prj_other'), ['pro-kept']);
    assert.deepEqual(await left('prj_big'), ['big-kept']);
    assert.equal(await storage.requestLog.purge(now), 0);
    // A day purged before can be written again (its partition is made anew where there are partitions).
    await storage.requestLog.write([
      logged({ requestId: 'late', projectId: 'prj_other', at: now - 35 * DAY }),
    ]);
    assert.deepEqual(await left('prj_other'), ['pro-kept', 'late']);
    assert.equal(await storage.requestLog.purge(now), 1);
  });

  it('requestLog.purge → a plan change holds for the requests written after it; those before keep their expiry', async () => {
    const storage = await setUp();
    const day = Math.floor(T0 / DAY) * DAY;
    await storage.requestLog.write([logged({ requestId: 'as-free', at: day + HOUR })]);
    assert.ok(await storage.projects.setPlan('acme', 'business', null, null));
    await storage.requestLog.write([logged({ requestId: 'as-business', at: day + 2 * HOUR })]);
    assert.equal(await storage.requestLog.purge(day + 2 * DAY), 1);
    const left = await storage.requestLog.list({ projectId: 'prj_acme', limit: 10 });
    assert.deepEqual(
      left.map((row) => row.requestId),
      ['as-business'],
    );
    assert.equal(await storage.requestLog.purge(day + 31 * DAY), 1);
  });

  it('requestLog.purge → a request carrying its key’s plan expires by that plan, not by a lookup; without one, by its project’s', async () => {
    const storage = await setUp();
    const day = Math.floor(T0 / DAY) * DAY;
    // prj_other is on Pro (7 days) in the database; the keys' records say otherwise.
    await storage.requestLog.write([
      logged({ requestId: 'as-free', projectId: 'prj_other', at: day + HOUR, plan: 'free' }),
      logged({ requestId: 'as-business', projectId: 'prj_acme', at: day + HOUR, plan: 'business' }),
      logged({ requestId: 'looked-up', projectId: 'prj_other', at: day + 2 * DAY + HOUR }),
    ]);
    assert.equal(await storage.requestLog.purge(day + 2 * DAY), 1, 'Free: gone after its day and one');
    assert.equal(await storage.requestLog.purge(day + 10 * DAY - 1), 0, 'Pro, looked up: kept a week');
    assert.equal(await storage.requestLog.purge(day + 10 * DAY), 1);
    assert.equal(await storage.requestLog.purge(day + 31 * DAY - 1), 0, 'Business, though acme is Free');
    assert.equal(await storage.requestLog.purge(day + 31 * DAY), 1);
  });

  it('requestLog.purge → many expired batches go in slices, `slice` awaited between them, and stop when it answers false', async () => {
    const storage = await setUp();
    const day = Math.floor(T0 / DAY) * DAY;
    // 100 writes of one request each: 100 batches, more than one slice on either database (SQLite
    // deletes 32 batches a slice, PostgreSQL a partition).
    for (let n = 0; n < 100; n++)
      await storage.requestLog.write([logged({ requestId: `r${n}`, at: day + (n % 2) * DAY + n })]);
    let slices = 0;
    const first = await storage.requestLog.purge(day + 10 * DAY, async () => {
      slices++;
      return false;
    });
    assert.equal(slices, 1);
    assert.ok(first > 0 && first < 100, `${first} purged in the first slice`);
    const rest = await storage.requestLog.purge(day + 10 * DAY, async () => true);
    assert.equal(first + rest, 100);
    assert.deepEqual(await storage.requestLog.list({ projectId: 'prj_acme', limit: 10 }), []);
  });
}

export function usageContract(fixture: () => StorageFixture): void {
  it('requestLog.usage → hourly counts per class and latency bucket, kept by each write, summed or per key', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    const hour = Math.floor(T0 / HOUR) * HOUR;
    await storage.requestLog.write([
      logged({ at: hour + 1, status: 200, latencyMs: 1 }),
      logged({ at: hour + 2, status: 200, latencyMs: 1, keyId: 'key_b' }),
      logged({ at: hour + 3, status: 429 }),
    ]);
    await storage.requestLog.write([
      logged({ at: hour + HOUR, status: 404 }),
      logged({ at: hour + HOUR + 5, status: 503, latencyMs: 250 }),
      logged({ at: hour + 4, status: 200, latencyMs: 1 }),
    ]);
    const total = (rows: { count: number }[]) => rows.reduce((sum, row) => sum + row.count, 0);
    const all = await storage.requestLog.usage({
      projectId: 'prj_acme',
      since: hour,
      until: hour + 2 * HOUR,
    });
    assert.equal(total(all), 6);
    const firstHour2xx = all.filter((row) => row.hour === hour && row.statusClass === '2xx');
    assert.deepEqual(
      firstHour2xx.map((row) => row.count),
      [3],
    );
    assert.deepEqual(
      all
        .filter((row) => row.hour === hour + HOUR)
        .map((row) => row.statusClass)
        .sort(),
      ['4xx', '5xx'],
    );
    const perKey = await storage.requestLog.usage({
      projectId: 'prj_acme',
      since: hour,
      until: hour + HOUR,
      byKey: true,
    });
    assert.deepEqual(
      perKey
        .filter((row) => row.statusClass === '2xx')
        .map((row) => [row.keyId, row.count])
        .sort(),
      [
        ['key_a', 2],
        ['key_b', 1],
      ],
    );
    const keyB = await storage.requestLog.usage({
      projectId: 'prj_acme',
      keyId: 'key_b',
      since: hour,
      until: hour + 2 * HOUR,
    });
    assert.equal(total(keyB), 1);
    assert.equal(
      total(
        await storage.requestLog.usage({ projectId: 'prj_acme', since: hour + HOUR, until: hour + 2 * HOUR }),
      ),
      2,
    );
    assert.equal(await storage.requestLog.purgeUsage(hour + HOUR), 3);
    assert.equal(
      total(await storage.requestLog.usage({ projectId: 'prj_acme', since: hour, until: hour + 2 * HOUR })),
      2,
    );
  });
}

export function usageTallyContract(fixture: () => StorageFixture): void {
  it('requestLog.write with usage: false stores the rows only; addUsage adds counted cells to the same rollups', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    const hour = Math.floor(T0 / HOUR) * HOUR;
    const rows = [
      logged({ at: hour + 1, status: 200, latencyMs: 1 }),
      logged({ at: hour + 2, status: 200, latencyMs: 1, keyId: 'key_b' }),
      logged({ at: hour + 3, status: 429, count: 4 }),
    ];
    await storage.requestLog.write(rows, { usage: false });
    const total = async () =>
      (await storage.requestLog.usage({ projectId: 'prj_acme', since: hour, until: hour + HOUR })).reduce(
        (sum, row) => sum + row.count,
        0,
      );
    assert.equal((await storage.requestLog.list({ projectId: 'prj_acme', limit: 10 })).length, 3);
    assert.equal(await total(), 0);
    const tally = createUsageTally();
    tally.add(rows);
    tally.add(rows);
    await storage.requestLog.addUsage(tally.take());
    assert.equal(await total(), 12);
    await storage.requestLog.addUsage(rollUp([logged({ at: hour + 9, status: 200, latencyMs: 1 })]));
    const perKey = await storage.requestLog.usage({
      projectId: 'prj_acme',
      since: hour,
      until: hour + HOUR,
      byKey: true,
    });
    assert.deepEqual(
      perKey
        .filter((row) => row.statusClass === '2xx')
        .map((row) => [row.keyId, row.count])
        .sort(),
      [
        ['key_a', 3],
        ['key_b', 2],
      ],
    );
  });
}
