import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createRequestIds } from '../src/http/request-ids.ts';
import { EXPORT_PAGE_ROWS } from '../src/features/requests/request-export.ts';
import { tokenHolder } from './manage-support.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';
import { logged } from './storage-contract-request-log.ts';

describe('dashboard Requests tab: exports, search by id, messages, empty state', () => {
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

  const page = (url: string) =>
    t.request({ url, key: null, unchecked: true, headers: { cookie: member.cookie } });
  const call = async (url: string) => {
    const response = await t.request({ url, key: project.secret });
    return response.headers['x-request-id']!;
  };

  it('GET /requests.csv → every row of the filter across export pages, newest first, as an attachment', async () => {
    const now = t.clock.now();
    const total = EXPORT_PAGE_ROWS * 2 + 7;
    await t.storage.requestLog.write(
      Array.from({ length: total }, (_, i) =>
        logged({ projectId: project.projectId, at: now - total + i, requestId: `bulk-${i}`, status: 500 }),
      ),
    );
    await t.storage.requestLog.write([logged({ projectId: project.projectId, at: now, status: 200 })]);
    const csv = await page('/dashboard/projects/acme/requests.csv?status=5xx');
    assert.equal(csv.status, 200);
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(
      String(csv.headers['content-disposition']),
      /^attachment; filename="acme-requests-\d{4}-\d\d-\d\dT\d{6}Z\.csv"$/,
    );
    const lines = csv.body.split('\r\n');
    assert.equal(
      lines[0],
      'id,at,requestId,keyId,keyLabel,operation,method,path,status,code,message,count,latencyMs,address',
    );
    assert.equal(lines.at(-1), '');
    const ids = lines.slice(1, -1).map((line) => line.split(',')[2]);
    assert.deepEqual(
      ids,
      Array.from({ length: total }, (_, i) => `bulk-${total - 1 - i}`),
    );
  });

  it('GET /requests.ndjson → one JSON object a line with the message the client received', async () => {
    await call('/v1/pets?limit=0');
    await call('/v1/pets');
    await t.app.requestLog!.flush();
    const ndjson = await page('/dashboard/projects/acme/requests.ndjson');
    assert.equal(ndjson.headers['content-type'], 'application/x-ndjson; charset=utf-8');
    assert.match(String(ndjson.headers['content-disposition']), /filename="acme-requests-.*\.ndjson"/);
    const rows = ndjson.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.status, 200);
    assert.equal(rows[0]!.message, null);
    assert.equal(rows[1]!.status, 400);
    assert.equal(rows[1]!.code, 'invalid_parameter');
    assert.match(String(rows[1]!.message), /limit/);
    // The management API's export of the same rows: the same objects, field for field.
    const token = await tokenHolder(t, ['acme'], { role: 'viewer', scope: 'read' });
    const api = await t.request({
      url: '/manage/v1/projects/acme/requests',
      key: token.token,
      headers: { accept: 'application/x-ndjson' },
    });
    assert.deepEqual(
      api.body
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
      rows,
    );
  });

  it('GET /requests.csv → cells starting with = + - @ are prefixed with a quote; commas and quotes quoted', async () => {
    await t.storage.requestLog.write([
      logged({
        projectId: project.projectId,
        at: t.clock.now(),
        keyLabel: '=HYPERLINK("http://x","y")',
        message: '+1, "quoted"',
        address: '@evil',
        code: '-oops',
        status: 400,
      }),
    ]);
    const csv = await page('/dashboard/projects/acme/requests.csv');
    const row = csv.body.split('\r\n')[1]!;
    assert.match(row, /,'-oops,"'\+1, ""quoted""",/);
    assert.match(row, /,"'=HYPERLINK\(""http:\/\/x"",""y""\)",/);
    assert.match(row, /,'@evil$/);
  });

  it('exports → a bad filter is a 400 naming it; a member of another project gets 404', async () => {
    assert.equal((await page('/dashboard/projects/acme/requests.csv?status=3xx')).status, 400);
    assert.equal((await page('/dashboard/projects/other/requests.ndjson')).status, 404);
  });

  it('request id search → any case, a unique prefix of 8+ characters; an ambiguous prefix says so', async () => {
    const ids = createRequestIds(() => 0x019ab6970000);
    const [first, second] = [ids.next(), ids.next()];
    const now = t.clock.now();
    await t.storage.requestLog.write([
      logged({ projectId: project.projectId, at: now - 2, requestId: first }),
      logged({ projectId: project.projectId, at: now - 1, requestId: second }),
    ]);
    const upper = await page(`/dashboard/projects/acme/requests?request_id=${second.toUpperCase()}`);
    assert.ok(upper.body.includes(`${second}<span`) && !upper.body.includes(`${first}<span`));
    const unique = second.slice(0, 24).toUpperCase();
    const byPrefix = await page(`/dashboard/projects/acme/requests?request_id=${unique}`);
    assert.ok(byPrefix.body.includes(`${second}<span`) && !byPrefix.body.includes(`${first}<span`));
    assert.doesNotMatch(byPrefix.body, /type\s+more\s+of\s+the\s+id/);
    const ambiguous = await page(`/dashboard/projects/acme/requests?request_id=${first.slice(0, 8)}`);
    assert.match(ambiguous.body, /2 requests have an id starting with/);
    assert.match(ambiguous.body, /type\s+more\s+of\s+the\s+id/);
    const short = await page(`/dashboard/projects/acme/requests?request_id=${first.slice(0, 7)}`);
    assert.match(
      short.body,
      /No requests\s+match\.\s+Search\s+by\s+the\s+whole\s+id,\s+or\s+its\s+first\s+8\s+characters/,
    );
  });

  it('GET /requests/:id of a 400 → the message the client received', async () => {
    const response = await t.request({ url: '/v1/pets?limit=0', key: project.secret, unchecked: true });
    const message = (JSON.parse(response.body) as { message: string }).message;
    await t.app.requestLog!.flush();
    const [row] = await t.storage.requestLog.list({ projectId: project.projectId, limit: 1 });
    const details = await page(`/dashboard/projects/acme/requests/${row!.id}`);
    assert.match(details.body, /Message the client received/);
    assert.ok(details.body.includes(message.replaceAll('"', '&quot;').replaceAll("'", '&#39;')), message);
  });

  it('status filter → 2xx, 4xx (not 429), 429, 5xx in this order; 4xx leaves 429 out', async () => {
    const limited = logged({
      projectId: project.projectId,
      at: t.clock.now(),
      requestId: 'limited',
      status: 429,
    });
    const missing = logged({
      projectId: project.projectId,
      at: t.clock.now(),
      requestId: 'missing',
      status: 404,
    });
    await t.storage.requestLog.write([limited, missing]);
    const list = await page('/dashboard/projects/acme/requests?status=4xx');
    const options = [...list.body.matchAll(/<option value="(2xx|4xx|429|5xx)"[^>]*>([^<]+)</g)];
    assert.deepEqual(
      options.map((option) => option[1]),
      ['2xx', '4xx', '429', '5xx'],
    );
    assert.equal(options[1]![2], '4xx client error (not 429)');
    assert.ok(list.body.includes('missing<span') && !list.body.includes('limited<span'));
  });

  it('before any request → Requests and Overview say "No requests yet" with the first request to make', async () => {
    for (const url of ['/dashboard/projects/acme/requests', '/dashboard/projects/acme']) {
      const body = (await page(url)).body;
      assert.match(body, /No requests yet\./, url);
      assert.match(body, /curl -H "Authorization: Bearer \$KEY" http:\/\/[^ ]+\/v1\/pets/, url);
    }
  });
});
