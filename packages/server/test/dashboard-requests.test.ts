import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';
import { logged } from './storage-contract-request-log.ts';

describe('dashboard Requests tab', () => {
  let t: TestApp;
  let member: SignedIn;
  let project: Awaited<ReturnType<typeof projectWithKey>>;
  beforeEach(async () => {
    t = await makeTestApp();
    project = await projectWithKey(t, 'acme');
    member = await t.signedInMember('acme');
    await t.storage.projects.setRole(member.accountId, project.projectId, 'viewer');
  });
  afterEach(() => t.close());

  const page = (url: string, who: SignedIn = member) =>
    t.request({ url, key: null, unchecked: true, headers: { cookie: who.cookie } });

  const call = async (url: string) => {
    const response = await t.request({ url, key: project.secret });
    return response.headers['x-request-id']!;
  };

  it('GET /requests → every request of the project’s keys, newest first, with status, code and key', async () => {
    const ok = await call('/v1/pets');
    const bad = await call('/v1/pets?limit=0');
    await t.app.requestLog!.flush();
    const response = await page('/dashboard/projects/acme/requests');
    assert.equal(response.status, 200);
    assert.ok(response.body.indexOf(bad) < response.body.indexOf(ok) && response.body.includes(ok));
    assert.match(response.body, /invalid_parameter/);
    assert.match(response.body, /Storefront/);
    assert.match(response.body, /aria-current="page">Requests</);
  });

  it('a banned key’s refusals of one second → one row marked with their number, and its page says so', async () => {
    await t.storage.requestLog.write([
      logged({
        projectId: project.projectId,
        at: t.clock.now(),
        requestId: 'banned-burst',
        status: 429,
        code: 'temporarily_banned',
        count: 1_234,
      }),
    ]);
    const list = await page('/dashboard/projects/acme/requests?status=429');
    assert.match(list.body, /temporarily_banned<\/span>\s*<span class="badge warn"[^>]*\s*>×1,234<\/span/);
    const [stored] = await t.storage.requestLog.list({ projectId: project.projectId, limit: 1 });
    const details = await page(`/dashboard/projects/acme/requests/${stored!.id}`);
    assert.match(details.body, /<dt>Requests<\/dt>\s*<dd>1,234: the key/);
  });

  it('filters → status class, request id search, key and operation narrow the list', async () => {
    const ok = await call('/v1/pets');
    const missing = await call('/v1/pets/12345');
    await t.app.requestLog!.flush();
    const only4xx = await page('/dashboard/projects/acme/requests?status=4xx');
    assert.ok(only4xx.body.includes(missing) && !only4xx.body.includes(ok));
    const byId = await page(`/dashboard/projects/acme/requests?request_id=${ok}`);
    assert.ok(byId.body.includes(ok) && !byId.body.includes(missing));
    const byOperation = await page('/dashboard/projects/acme/requests?operation=getPet&range=1h');
    assert.ok(byOperation.body.includes(missing) && !byOperation.body.includes(ok));
    const otherKey = await page('/dashboard/projects/acme/requests?key=key_none');
    assert.match(otherKey.body, /No requests\s+match/);
  });

  it('more than a page → 50 rows and an Older link whose page holds the rest, filters kept', async () => {
    const now = t.clock.now();
    await t.storage.requestLog.write(
      Array.from({ length: 60 }, (_, i) =>
        logged({ projectId: project.projectId, at: now - i, requestId: `bulk-${i}`, status: 500 }),
      ),
    );
    const first = await page('/dashboard/projects/acme/requests?status=5xx');
    assert.equal(first.body.match(/bulk-\d+<span/g)!.length, 50);
    const older = /href="([^"]+)" rel="next"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(older, /status=5xx/);
    const second = await page(older);
    assert.deepEqual(
      second.body.match(/bulk-\d+(?=<span)/g),
      Array.from({ length: 10 }, (_, i) => `bulk-${50 + i}`),
    );
    assert.doesNotMatch(second.body, /rel="next"/);
  });

  it('GET /requests/:id → the details; another project’s row or a malformed id → 404', async () => {
    const id = await call('/v1/pets?token=s3cret');
    await t.app.requestLog!.flush();
    const [row] = await t.storage.requestLog.list({ projectId: project.projectId, limit: 1 });
    const details = await page(`/dashboard/projects/acme/requests/${row!.id}`);
    assert.equal(details.status, 200);
    assert.ok(details.body.includes(id));
    assert.match(details.body, /token=\[redacted\]/);
    assert.match(details.body, /127\.0\.0\.1/);
    const other = await projectWithKey(t, 'other');
    await t.storage.requestLog.write([logged({ projectId: other.projectId, at: t.clock.now() })]);
    const [theirs] = await t.storage.requestLog.list({ projectId: other.projectId, limit: 1 });
    assert.equal((await page(`/dashboard/projects/acme/requests/${theirs!.id}`)).status, 404);
    assert.equal((await page('/dashboard/projects/acme/requests/abc')).status, 404);
  });

  it('bad filter values → 400 naming the parameter, never a 5xx', async () => {
    for (const query of [
      'status=3xx',
      'operation=dropTables',
      'range=2y',
      'before=x',
      'status=4xx&status=5xx',
      'from=yesterday',
      'from=2026-02-30T10:00',
      'from=2026-11-29T10:00&to=2026-11-29T09:00',
    ]) {
      const response = await page(`/dashboard/projects/acme/requests?${query}`);
      assert.equal(response.status, 400, query);
    }
  });

  it('a custom time range (UTC) → only the requests from its start up to its end; the exports keep it', async () => {
    const hour = 3_600_000;
    const utc = (at: number) => new Date(at).toISOString().slice(0, 16);
    const now = t.clock.now();
    await t.storage.requestLog.write(
      [5, 4, 3, 2, 1].map((hours) =>
        logged({ projectId: project.projectId, at: now - hours * hour, requestId: `hours-ago-${hours}` }),
      ),
    );
    const range = `from=${utc(now - 4 * hour)}&to=${utc(now - 2 * hour)}`;
    const response = await page(`/dashboard/projects/acme/requests?${range}`);
    assert.equal(response.status, 200);
    const shown = [...response.body.matchAll(/hours-ago-(\d)/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(shown)], ['3', '4']);
    assert.match(response.body, new RegExp(`value="${utc(now - 4 * hour)}"`));
    const csv = await page(`/dashboard/projects/acme/requests.csv?${range}`);
    assert.deepEqual(
      [...csv.body.matchAll(/hours-ago-(\d)/g)].map((m) => m[1]),
      ['3', '4'],
    );
  });

  it('rows older than the plan keeps → not shown', async () => {
    await t.storage.projects.setPlan('acme', 'free', null, null);
    await t.storage.requestLog.write([
      logged({ projectId: project.projectId, at: t.clock.now() - 2 * 86_400_000, requestId: 'too-old' }),
      logged({ projectId: project.projectId, at: t.clock.now() - 3_600_000, requestId: 'recent' }),
    ]);
    const response = await page('/dashboard/projects/acme/requests');
    assert.ok(response.body.includes('recent') && !response.body.includes('too-old'));
  });
  it('calls just answered → on the tab and in the usage at once, though their batch is not due', async () => {
    await t.close();
    // Rows written only when a page asks: without that, nothing would show for a minute.
    t = await makeTestApp({ requestLog: { flushIntervalMs: 60_000 } });
    project = await projectWithKey(t, 'acme');
    member = await t.signedInMember('acme');
    const ok = await call('/v1/pets');
    const missing = await call('/v1/pets/12345');
    const list = await page('/dashboard/projects/acme/requests');
    assert.ok(list.body.includes(ok) && list.body.includes(missing), 'both calls listed');
    assert.equal(t.app.requestLog!.stats().buffered, 0);

    const third = await call('/v1/pets?limit=0');
    const [row] = await t.storage.requestLog.list({ projectId: project.projectId, limit: 1 });
    assert.notEqual(row?.requestId, third, 'not yet written on its own');
    const csv = await page('/dashboard/projects/acme/usage.csv?step=hour');
    assert.match(csv.body.trimEnd().split('\n').at(-1)!, /^[\dT:.Z-]+,1,2,0,0,3,/);

    const fourth = await call('/v1/pets');
    const overview = await page('/dashboard/projects/acme');
    assert.match(overview.body, /<desc id="usage-hourly-desc">4 requests: 2 2xx, 2 4xx, 0 429, 0 5xx\./);
    const [newest] = await t.storage.requestLog.list({ projectId: project.projectId, limit: 1 });
    assert.equal(newest!.requestId, fourth);
  });
});
