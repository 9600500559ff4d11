import assert from 'node:assert/strict';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { EXPORT_RETRY_AFTER_SECONDS, EXPORTS_PER_PROJECT } from '../src/features/requests/export-slots.ts';
import { EXPORT_PAGE_ROWS } from '../src/features/requests/request-export.ts';
import { eventually } from './eventually.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { seededRequestLog } from './seeded-request-log.ts';

const NDJSON = { accept: 'application/x-ndjson' };

/**
 * Rows a stalled export must not be able to finish with: far more than the socket buffers of the
 * loopback hold (a few MB), so a client that stops reading leaves most pages unread.
 */
const MANY_ROWS = 60_000;

describe('exports of the request log: paced, following the client, capped', () => {
  let t: TestApp;
  let viewer: TokenHolder;
  /** Pages the storage has given to exports so far. */
  let pagesRead = 0;
  let origin = '';
  const streams: IncomingMessage[] = [];

  /** A fresh app whose log holds `rows` requests of project acme, and a viewer's token for acme. */
  const start = async (rows: number) => {
    t = await makeTestApp({ copyOf: await seededRequestLog(rows) });
    viewer = await tokenHolder(t, ['acme'], { role: 'viewer', scope: 'read' });
    pagesRead = 0;
    const log = t.storage.requestLog;
    const pages = log.pages.bind(log);
    log.pages = async function* counted(query, pageRows) {
      for await (const page of pages(query, pageRows)) {
        pagesRead++;
        yield page;
      }
    };
    origin = '';
  };
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.destroy();
    await t.close();
  });

  /** An export over a real socket whose client reads nothing until told: the response, paused. */
  const stalledExport = async (path: string, headers: Record<string, string>) => {
    if (!origin) origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { hostname, port } = new URL(origin);
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpRequest({ host: hostname, port, path, headers }, resolve).once('error', reject).end(),
    );
    response.pause();
    streams.push(response);
    return response;
  };

  /** Resolves once the pages read have not changed for a while: the export is waiting. */
  const settled = async () => {
    let last = -1;
    let still = 0;
    await eventually(async () => {
      still = pagesRead === last ? still + 1 : 0;
      last = pagesRead;
      return still >= 20;
    }, 25);
  };

  it('an export of many pages → another request is answered while it streams, before its last page is read', async () => {
    const pages = 40;
    await start(pages * EXPORT_PAGE_ROWS);
    const exporting = t.request({
      url: '/manage/v1/projects/acme/requests',
      key: viewer.token,
      headers: NDJSON,
    });
    // Started once the export has read its first page.
    await eventually(async () => pagesRead > 0, 1);
    const other = await t.request({ url: '/v1/pets?limit=1' });
    const readWhenAnswered = pagesRead;
    const exported = await exporting;
    assert.equal(other.status, 200);
    assert.equal(exported.status, 200);
    assert.equal(exported.body.trimEnd().split('\n').length, pages * EXPORT_PAGE_ROWS);
    assert.equal(pagesRead, pages);
    assert.ok(
      readWhenAnswered < pages,
      `the other request was answered after page ${readWhenAnswered} of ${pages}`,
    );
  });

  it('a client that stops reading → the export stops reading pages; once it reads again, every row comes', async () => {
    await start(MANY_ROWS);
    const total = Math.ceil(MANY_ROWS / EXPORT_PAGE_ROWS);
    const response = await stalledExport('/manage/v1/projects/acme/requests', {
      authorization: `Bearer ${viewer.token}`,
      ...NDJSON,
    });
    assert.equal(response.statusCode, 200);
    await settled();
    assert.ok(pagesRead < total, `${pagesRead} of ${total} pages read for a client reading nothing`);
    let lines = 0;
    response.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    });
    response.resume();
    await new Promise((resolve) => response.once('end', resolve));
    assert.equal(lines, MANY_ROWS);
    assert.equal(pagesRead, total);
  });

  it('a client gone mid-export → no page read after it, and its token may export again', async () => {
    await start(MANY_ROWS);
    const headers = { authorization: `Bearer ${viewer.token}`, ...NDJSON };
    const response = await stalledExport('/manage/v1/projects/acme/requests', headers);
    await settled();
    const readBeforeClose = pagesRead;
    response.destroy();
    await eventually(async () => {
      const again = await t.request({
        url: '/manage/v1/projects/acme/requests?status=5xx',
        key: viewer.token,
        headers: NDJSON,
      });
      return again.status === 200;
    });
    // The export read at most the page it was reading when the client went (and the 5xx export none).
    assert.ok(
      pagesRead <= readBeforeClose + 1,
      `${pagesRead} pages read, ${readBeforeClose} before the close`,
    );
  });

  it('one export per token, EXPORTS_PER_PROJECT per project (API and dashboard together) → one more is 429 too_many_exports with Retry-After', async () => {
    await start(MANY_ROWS);
    assert.equal(EXPORTS_PER_PROJECT, 2);
    const path = '/manage/v1/projects/acme/requests';
    const first = await stalledExport(path, { authorization: `Bearer ${viewer.token}`, ...NDJSON });
    assert.equal(first.statusCode, 200);

    const sameToken = await t.request({ url: path, key: viewer.token, headers: NDJSON });
    assert.equal(sameToken.status, 429);
    assert.equal(sameToken.headers['retry-after'], String(EXPORT_RETRY_AFTER_SECONDS));
    const body = JSON.parse(sameToken.body) as { code: string; status: number; message: string };
    assert.equal(body.code, 'too_many_exports');
    assert.equal(body.status, 429);
    assert.match(body.message, /token already has an export streaming/);
    // A page of the log is no export: never capped.
    assert.equal((await t.request({ url: `${path}?limit=5`, key: viewer.token })).status, 200);

    const member: SignedIn = await t.signedInMember('acme');
    const second = await stalledExport('/dashboard/projects/acme/requests.csv', { cookie: member.cookie });
    assert.equal(second.statusCode, 200);

    const another = await tokenHolder(t, ['acme'], { role: 'viewer', scope: 'read' });
    const third = await t.request({ url: path, key: another.token, headers: NDJSON });
    assert.equal(third.status, 429);
    assert.equal((third.json() as { code: string }).code, 'too_many_exports');
    const otherMember = await t.signedInMember('acme');
    const page = await t.request({
      url: '/dashboard/projects/acme/requests.ndjson',
      key: null,
      unchecked: true,
      headers: { cookie: otherMember.cookie },
    });
    assert.equal(page.status, 429);
    assert.equal(page.headers['retry-after'], String(EXPORT_RETRY_AFTER_SECONDS));

    // Another project's exports are not held back by this one's.
    const elsewhere = await tokenHolder(t, ['other'], { role: 'viewer', scope: 'read' });
    const theirs = await t.request({
      url: '/manage/v1/projects/other/requests',
      key: elsewhere.token,
      headers: NDJSON,
    });
    assert.equal(theirs.status, 200);

    // A finished export frees its slot.
    first.destroy();
    await eventually(
      async () => (await t.request({ url: path, key: another.token, headers: NDJSON })).status === 200,
    );
  });
});
