import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { generateKey } from '../src/auth/keys.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';

describe('request log over HTTP', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const rows = async (app: TestApp, projectId: string) => {
    await app.app.requestLog!.flush();
    return app.storage.requestLog.list({ projectId, limit: 100 });
  };

  it('a project key’s 200, 400, 404 and 429 → one row each, with key, operation, status, code and request id', async () => {
    t = await makeTestApp();
    const { projectId, keyId, secret } = await projectWithKey(t, 'acme', { perMinute: 3 });
    const ok = await t.request({ url: '/v1/pets', key: secret, headers: { 'x-request-id': 'req-ok' } });
    const bad = await t.request({ url: '/v1/pets?limit=0', key: secret });
    const missing = await t.request({ url: '/v1/pets/999', key: secret });
    const limited = await t.request({ url: '/v1/pets', key: secret });
    assert.deepEqual([ok.status, bad.status, missing.status, limited.status], [200, 400, 404, 429]);
    const logged = await rows(t, projectId);
    assert.deepEqual(
      logged.map((row) => [row.requestId, row.status, row.code, row.operation, row.method]),
      [
        [limited.headers['x-request-id'], 429, 'rate_limited', 'listPets', 'GET'],
        [missing.headers['x-request-id'], 404, 'not_found', 'getPet', 'GET'],
        [bad.headers['x-request-id'], 400, 'invalid_parameter', 'listPets', 'GET'],
        ['req-ok', 200, null, 'listPets', 'GET'],
      ],
    );
    for (const row of logged) {
      assert.equal(row.keyId, keyId);
      assert.equal(row.keyLabel, 'Storefront');
      assert.equal(row.at, t.clock.now());
      assert.equal(row.address, '127.0.0.1');
      assert.ok(row.latencyMs >= 0);
    }
    assert.equal(logged.at(-1)!.path, '/v1/pets');
  });

  it('requests without a key, with a standalone key or to public routes → not logged for any project', async () => {
    t = await makeTestApp();
    const { projectId } = await projectWithKey(t, 'acme');
    await t.request({ url: '/v1/pets' });
    await t.request({ url: '/v1/pets', key: null });
    await t.request({ url: '/healthz', key: null });
    assert.deepEqual(await rows(t, projectId), []);
    assert.equal(t.app.requestLog!.stats().written, 0);
  });

  it('secrets sent in headers, cookies and query parameters → none of them reaches the table', async () => {
    t = await makeTestApp();
    const { projectId, secret } = await projectWithKey(t, 'acme');
    const secrets = [
      's3cret-key-value',
      's3cret-token-value',
      's3cret-password',
      's3cret-cookie',
      's3cret-apikey',
    ];
    await t.request({
      url: `/v1/pets?key=${secrets[0]}&token=${secrets[1]}&password=${secrets[2]}&limit=5`,
      key: secret,
      headers: { cookie: `petstore_session=${secrets[3]}`, 'x-api-key': secrets[4]! },
    });
    await t.request({ url: `/v1/pets?api_key=${encodeURIComponent(secret)}`, key: secret });
    await t.request({ url: `/v1/pets/${secret}`, key: secret });
    await t.request({
      method: 'POST',
      url: '/v1/pets',
      key: secret,
      body: { name: 's3cret-in-body', categoryId: 1 },
    });
    const logged = await rows(t, projectId);
    assert.equal(logged.length, 4);
    const everything = JSON.stringify(logged);
    for (const text of [...secrets, secret, 's3cret-in-body', 'Bearer']) {
      assert.ok(!everything.includes(text), `${text} was stored`);
    }
    assert.ok(
      logged.some(
        (row) => row.path === '/v1/pets?key=[redacted]&token=[redacted]&password=[redacted]&limit=5',
      ),
    );
  });

  it('a key encoded twice in the path, parameters of a secret’s name or kind → redacted in the table and in the JSON log lines', async () => {
    const logLines: string[] = [];
    t = await makeTestApp({ logLines });
    const { projectId, secret } = await projectWithKey(t, 'acme');
    const twice = secret.replaceAll('_', '%255F');
    const names = ['auth_token', 'api_token', 'access_key', 'private_token', 'jwt', 'new_password'];
    const more = ['user[password]', 'sessionToken', 'X-Amz-Signature', 'my_client_secret', 'session_id'];
    const query = [...names, ...more].map((name, i) => `${encodeURIComponent(name)}=s3cret-${i}`).join('&');
    await t.request({ url: `/v1/pets/${twice}`, key: secret });
    await t.request({ url: `/v1/pets?${query}&limit=5`, key: secret });
    const logged = await rows(t, projectId);
    assert.deepEqual(
      logged.map((row) => row.path),
      [
        `/v1/pets?${[...names, ...more].map((name) => `${encodeURIComponent(name)}=[redacted]`).join('&')}&limit=5`,
        '/v1/pets/[redacted]',
      ],
    );
    const urls = logLines
      .map((line) => JSON.parse(line) as { msg?: string; url?: string })
      .filter((line) => line.msg === 'request')
      .map((line) => line.url);
    assert.deepEqual(urls, logged.map((row) => row.path).reverse());
    const everything = JSON.stringify(logged) + logLines.join('\n');
    assert.ok(!/s3cret-/.test(everything), 'a secret value was stored or logged');
    assert.ok(!everything.includes(twice) && !everything.includes(secret));
  });

  it('a banned key’s flood beside another project’s creates → a row per second for the flood, every create kept', async () => {
    // A buffer far smaller than the flood: without counting refusals it would be full many times over.
    t = await makeTestApp({ requestLog: { maxBuffered: 30, batchSize: 10, flushIntervalMs: 60_000 } });
    const flood = await projectWithKey(t, 'flood', { perMinute: 2 });
    const other = await projectWithKey(t, 'other');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 400; i++) {
      const { status } = await t.request({ url: '/v1/pets', key: flood.secret });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (i % 20 === 0) {
        const created = await t.request({
          method: 'POST',
          url: '/v1/pets',
          key: other.secret,
          body: { name: `pet ${i}`, categoryId: 1 },
        });
        assert.equal(created.status, 201);
      }
      if (i % 100 === 99) t.clock.advance(1_000);
    }
    assert.deepEqual([statuses.get(200), statuses.get(429)], [2, 398]);
    const flooded = await rows(t, flood.projectId);
    const counted = (code: string) =>
      flooded.filter((row) => row.code === code).reduce((sum, row) => sum + (row.count ?? 1), 0);
    assert.equal(counted('rate_limited') + counted('temporarily_banned'), 398, 'every refusal counted');
    assert.ok(flooded.length <= 2 + 2 * 4, `${flooded.length} rows: at most one per key, code and second`);
    const created = await rows(t, other.projectId);
    assert.equal(created.length, 20, 'the other project lost no row');
    assert.ok(created.every((row) => row.status === 201 && row.operation === 'createPet'));
    assert.equal(t.app.requestLog!.stats().dropped.bufferFull, 0);
    const metrics = await t.request({ url: '/metrics', key: null });
    assert.match(metrics.body, /petstore_request_log_coalesced_total \d+/);
  });

  it('ten keys of one project refused → no more refusal rows than one key refused; each key’s usage counts its own', async () => {
    t = await makeTestApp({ requestLog: { flushIntervalMs: 60_000 } });
    const first = await projectWithKey(t, 'many', { perMinute: 2 });
    const keys = [first];
    for (let i = 1; i < 10; i++) {
      const { secret, id, digest, prefix } = generateKey('test');
      await t.storage.keys.create({
        ...{ id, digest, prefix, projectId: first.projectId, plan: 'enterprise', perMinute: null },
        ...{
          perDay: null,
          label: `key ${i}`,
          environment: 'test',
          createdAt: t.clock.now(),
          expiresAt: null,
        },
      });
      keys.push({ projectId: first.projectId, keyId: id, secret });
    }
    const refusals = new Map<string, number>();
    for (let second = 0; second < 2; second++) {
      for (let i = 0; i < 20; i++) {
        for (const key of keys) {
          const { status } = await t.request({ url: '/v1/pets', key: key.secret, unchecked: true });
          if (status === 429) refusals.set(key.secret, (refusals.get(key.secret) ?? 0) + 1);
        }
      }
      t.clock.advance(1_000);
    }
    const logged = await rows(t, first.projectId);
    const refused = logged.filter((row) => row.status === 429);
    const total = [...refusals.values()].reduce((sum, n) => sum + n, 0);
    assert.ok(total >= 10 * 30, `${total} refusals`);
    assert.equal(
      refused.reduce((sum, row) => sum + (row.count ?? 1), 0),
      total,
      'every refusal counted',
    );
    // At most one row per code (rate_limited, temporarily_banned) and second: as for one key alone.
    assert.ok(refused.length <= 2 * 2, `${refused.length} refusal rows for ten keys over two seconds`);
    const usage = await t.storage.requestLog.usage({
      projectId: first.projectId,
      since: t.clock.now() - 3_600_000,
      until: t.clock.now() + 3_600_000,
      byKey: true,
    });
    for (const key of keys) {
      const counted = usage
        .filter((row) => row.keyId === key.keyId && row.statusClass === '429')
        .reduce((sum, row) => sum + row.count, 0);
      assert.equal(counted, refusals.get(key.secret), `the usage of ${key.keyId}`);
    }
  });

  it('PETSTORE_REQUEST_LOG=off (requestLog: false) → nothing is logged', async () => {
    t = await makeTestApp({ requestLog: false });
    const { projectId, secret } = await projectWithKey(t, 'acme');
    await t.request({ url: '/v1/pets', key: secret });
    assert.equal(t.app.requestLog, undefined);
    assert.deepEqual(await t.storage.requestLog.list({ projectId, limit: 10 }), []);
  });

  it('a full buffer → rows dropped and counted in /metrics, the requests answered as usual', async () => {
    t = await makeTestApp({ requestLog: { maxBuffered: 2, flushIntervalMs: 60_000 } });
    const { projectId, secret } = await projectWithKey(t, 'acme');
    for (let i = 0; i < 5; i++) assert.equal((await t.request({ url: '/v1/pets', key: secret })).status, 200);
    const metrics = await t.request({ url: '/metrics', key: null });
    assert.match(metrics.body, /petstore_request_log_dropped_total\{reason="buffer_full"\} 3/);
    assert.match(metrics.body, /petstore_request_log_buffered 2/);
    assert.equal((await rows(t, projectId)).length, 2);
  });
});
