import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../src/time/clock.ts';
import type { TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';
import { GUARD_MS, parseLogLine, spawnServe } from './serve-process.ts';
import { openStoreAt } from '../src/features/store.ts';

const REQUESTS = 300;

/** `REQUESTS` authenticated GETs, 10 at a time; every one must be answered 200. */
async function load(url: string, secret: string): Promise<void> {
  const one = async () => {
    const response = await fetch(`${url}/v1/pets?limit=1`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    await response.arrayBuffer();
    assert.equal(response.status, 200);
  };
  for (let sent = 0; sent < REQUESTS; sent += 10) await Promise.all(Array.from({ length: 10 }, one));
}

const loggedRows = (database: string): number => {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    // Requests as stored: each batch's rows, in the compact form (057) and the array form before it,
    // its part of its page since 135 (header, part and a closing brace: features/requests/request-log-pages.ts).
    const sql = `WITH texts AS (
        SELECT CASE WHEN b.page_id IS NULL THEN b.rows
          ELSE substr(p.rows, 1, p.header_length) || substr(p.rows, b.rows_from, b.rows_length) || '}' END AS rows
        FROM request_log_batches b LEFT JOIN request_log_pages p ON p.id = b.page_id)
      SELECT count(*) AS n FROM texts,
      json_each(texts.rows, CASE WHEN texts.rows LIKE '{%' THEN '$.rows' ELSE '$' END) WHERE json_each.type = 'array'`;
    return Number(db.prepare(sql).get()!.n);
  } finally {
    db.close();
  }
};

const requestLines = (lines: string[]) =>
  lines.map(parseLogLine).filter((line) => line?.msg === 'request' && line.url === '/v1/pets?limit=1');

/** What the request log's writer has written so far, from /metrics (this process's own counter). */
async function written(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = /^petstore_request_log_written_total (\d+)$/m.exec(text);
  return match ? Number(match[1]) : 0;
}

describe('the request log and the log lines through the end of the process', () => {
  let dir: string;
  let secret: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-request-log-shutdown-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const prepare = async (name: string) => {
    const database = join(dir, `${name}.db`);
    const storage = await openStoreAt(database);
    await storage.migrate();
    ({ secret } = await projectWithKey({ storage, clock: systemClock } as unknown as TestApp, 'acme'));
    await storage.close();
    return database;
  };

  it(`SIGTERM → all ${REQUESTS} answered requests are in the request log table and each has its log line`, async () => {
    const database = await prepare('sigterm');
    const serve = spawnServe({ ...process.env, DATABASE_URL: database, LOG_LEVEL: 'info' });
    const url = await serve.listening();
    await load(url, secret);
    serve.child.kill('SIGTERM');
    assert.equal(await serve.exited, 0);
    assert.equal(loggedRows(database), REQUESTS);
    assert.equal(requestLines(serve.lines).length, REQUESTS);
  });

  it('SIGKILL → nothing the writer reported written is lost: its batches commit without waiting for the disk, yet survive the process', async () => {
    const database = await prepare('sigkill');
    const serve = spawnServe({ ...process.env, DATABASE_URL: database, LOG_LEVEL: 'info' });
    const url = await serve.listening();
    await load(url, secret);
    // Rows wait at most a second (or until 250 wait) before their batch: what SIGKILL may take is that.
    const deadline = Date.now() + GUARD_MS;
    while ((await written(url)) < REQUESTS) {
      assert.ok(Date.now() < deadline, 'the request log never wrote every row');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    serve.child.kill('SIGKILL');
    await serve.exited;
    assert.equal(loggedRows(database), REQUESTS);
  });
});
