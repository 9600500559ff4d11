import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;
const CALLS = 30;

describe('management API: the request log', () => {
  let app: TestApp;
  let viewer: TokenHolder;

  before(async () => {
    app = await makeTestApp();
    const owner = await tokenHolder(app, ['acme']);
    viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
    const created = await app.request({
      method: 'POST',
      url: '/manage/v1/projects/acme/keys',
      key: owner.token,
      body: { label: 'logged' },
    });
    const { secret } = json(created.body) as { secret: string };
    for (let i = 0; i < CALLS; i++) {
      await app.request({ url: i % 3 === 0 ? '/v1/pets/999999' : '/v1/pets?limit=1', key: secret });
      app.clock.advance(1_000);
    }
  });
  after(async () => app.close());

  it('GET …/requests pages through every request, newest first, with a read token of a viewer', async () => {
    const seen: Json[] = [];
    let url: string | undefined = '/manage/v1/projects/acme/requests?limit=7';
    while (url) {
      const response = await app.request({ url, key: viewer.token });
      assert.equal(response.status, 200);
      const page = json(response.body);
      seen.push(...(page.data as Json[]));
      url = page.next ? `/manage/v1/projects/acme/requests?limit=7&cursor=${page.next as string}` : undefined;
    }
    assert.equal(seen.length, CALLS);
    const times = seen.map((row) => Date.parse(row.at as string));
    assert.deepEqual(
      times,
      times.toSorted((a, b) => b - a),
    );
  });

  it('GET …/requests?status=4xx → only the refused ones; an unknown parameter → 400', async () => {
    const response = await app.request({
      url: '/manage/v1/projects/acme/requests?status=4xx&limit=200',
      key: viewer.token,
    });
    const rows = json(response.body).data as Json[];
    assert.equal(rows.length, CALLS / 3);
    assert.ok(rows.every((row) => row.status === 404 && row.code === 'not_found'));
    const bad = await app.request({ url: '/manage/v1/projects/acme/requests?colour=red', key: viewer.token });
    assert.equal(bad.status, 400);
    assert.equal(json(bad.body).code, 'invalid_parameter');
  });

  it('Accept: application/x-ndjson → every matching request, one JSON object a line', async () => {
    const response = await app.request({
      url: '/manage/v1/projects/acme/requests',
      key: viewer.token,
      headers: { accept: 'application/x-ndjson' },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type'] ?? '', /^application\/x-ndjson/);
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    assert.equal(lines.length, CALLS);
    assert.equal(new Set(lines.map((line) => line.id)).size, CALLS);
    const paged = await app.request({
      url: '/manage/v1/projects/acme/requests?limit=5',
      key: viewer.token,
      headers: { accept: 'application/x-ndjson' },
    });
    assert.equal(paged.status, 400);
  });

  it('GET …/usage → the last 24 hours by hour (default) or 30 days by day, counted by outcome', async () => {
    const hours = await app.request({ url: '/manage/v1/projects/acme/usage', key: viewer.token });
    assert.equal(hours.status, 200);
    const body = json(hours.body) as { period: string; data: Json[] };
    assert.equal(body.period, 'hour');
    assert.equal(body.data.length, 24);
    const total = body.data.reduce((sum, row) => sum + (row.total as number), 0);
    const refused = body.data.reduce((sum, row) => sum + (row.clientErrors as number), 0);
    assert.deepEqual([total, refused], [CALLS, CALLS / 3]);
    const days = await app.request({ url: '/manage/v1/projects/acme/usage?period=day', key: viewer.token });
    assert.equal((json(days.body).data as Json[]).length, 30);
    const bad = await app.request({ url: '/manage/v1/projects/acme/usage?period=week', key: viewer.token });
    assert.equal(bad.status, 400);
  });
});
