import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import pg from 'pg';
import { makeTestApp, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { openStoreAt } from '../src/features/store.ts';

const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*\})? (\S+)$/;

/** Parses the exposition strictly: every line a HELP, a TYPE or a sample of the family declared last. */
function parse(text: string): Map<string, number> {
  assert.ok(text.endsWith('\n'), 'the exposition ends with a line feed');
  const values = new Map<string, number>();
  let family = '';
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') assert.match(comment[3]!, /^(counter|gauge|histogram)$/, line);
      family = comment[2]!;
      continue;
    }
    const sample = SAMPLE.exec(line);
    assert.ok(sample, `not a valid sample line: ${line}`);
    assert.ok(sample[1]!.startsWith(family), `${sample[1]} appears outside its family ${family}`);
    assert.ok(!values.has(`${sample[1]}${sample[2] ?? ''}`), `duplicate series: ${line}`);
    values.set(`${sample[1]}${sample[2] ?? ''}`, Number(sample[3]!.replace('+Inf', 'Infinity')));
  }
  return values;
}

async function scrape(app: TestApp): Promise<Map<string, number>> {
  const response = await app.request({ url: '/metrics', key: null });
  assert.equal(response.status, 200);
  assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(response.headers['x-ratelimit-limit'], '6000', '/metrics counts in the monitoring budget');
  return parse(response.body);
}

const requests = (operation: string, method: string, status: number) =>
  `petstore_http_requests_total{operation="${operation}",method="${method}",status="${status}"}`;

describe('GET /metrics', () => {
  it('GET /metrics → 200 Prometheus text without a key; request, duration and pet counters move', async () => {
    const app = await makeTestApp();
    try {
      const before = await scrape(app);
      assert.equal(before.get('petstore_pets_created_total'), 0);
      const body = { name: 'Rex', categoryId: 1 };
      assert.equal((await app.request({ method: 'POST', url: '/v1/pets', body })).status, 201);
      const idempotent = { 'idempotency-key': 'metrics-1' };
      await app.request({ method: 'POST', url: '/v1/pets', body, headers: idempotent });
      const replay = await app.request({ method: 'POST', url: '/v1/pets', body, headers: idempotent });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      await app.request({ url: '/v1/pets?limit=5' });
      await app.request({ url: '/v1/pets/1' });
      await app.request({ url: '/v1/store/orders' });
      await app.request({ url: '/v1/pets', key: null });
      await app.request({ url: '/nowhere', unchecked: true });

      const after = await scrape(app);
      assert.equal(after.get(requests('createPet', 'POST', 201)), 3);
      assert.equal(after.get(requests('listPets', 'GET', 200)), 1);
      assert.equal(after.get(requests('listPets', 'GET', 401)), 1);
      assert.equal(after.get(requests('getPet', 'GET', 200)), 1);
      assert.equal(after.get(requests('listStoreOrders', 'GET', 501)), 1);
      assert.equal(after.get(requests('other', 'GET', 404)), 1);
      assert.equal(after.get(requests('other', 'GET', 200)), 1, 'the first scrape is counted');
      assert.equal(after.get('petstore_pets_created_total'), 2, 'a replay creates nothing');
      const count = 'petstore_http_request_duration_seconds_count{operation="createPet"}';
      assert.equal(after.get(count), 3);
      assert.equal(
        after.get('petstore_http_request_duration_seconds_bucket{operation="createPet",le="+Inf"}'),
        3,
      );
      assert.equal(after.get('petstore_rate_limit_store_degraded'), 0);
      assert.ok(after.get('process_resident_memory_bytes')! > 0);
      assert.equal(
        [...after.keys()].some((series) => series.startsWith('petstore_db_pool_connections')),
        false,
        'SQLite has no pool to report',
      );
    } finally {
      await app.close();
    }
  });

  it('GET /metrics → refusals by reason and bans counted when a key is limited and then banned', async () => {
    const app = await makeTestApp({ banThreshold: 1 });
    try {
      const { secret } = await app.createKey('enterprise', { perMinute: 1, perDay: 1_000 });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await app.request({ url: '/v1/pets', key: secret })).status);
      assert.deepEqual(statuses, [200, 429, 429, 429]);
      const after = await scrape(app);
      assert.equal(after.get('petstore_rate_limit_refusals_total{reason="rate_limited"}'), 1);
      assert.equal(after.get('petstore_rate_limit_refusals_total{reason="temporarily_banned"}'), 2);
      assert.equal(after.get('petstore_bans_total'), 1);
    } finally {
      await app.close();
    }
  });
});

const postgres = await service('postgres');

describe('GET /metrics on PostgreSQL', { skip: 'skip' in postgres ? postgres.skip : false }, () => {
  it('GET /metrics → petstore_db_pool_connections by state', async () => {
    const url = 'url' in postgres ? postgres.url : '';
    const schema = `petstore_test_${randomBytes(6).toString('hex')}`;
    const app = await makeTestApp({ storage: await openStoreAt(url, { schema, poolSize: 3 }) });
    try {
      await app.request({ url: '/v1/pets' });
      const values = await scrape(app);
      const total = values.get('petstore_db_pool_connections{state="total"}')!;
      assert.ok(total >= 1 && total <= 3, `total ${total}`);
      assert.ok(values.get('petstore_db_pool_connections{state="idle"}')! <= total);
      assert.equal(values.get('petstore_db_pool_connections{state="waiting"}'), 0);
    } finally {
      await app.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
