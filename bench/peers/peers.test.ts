import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { publicContract } from '../../packages/server/src/openapi/contract.ts';
import {
  fetchOnce,
  freePort,
  type Response,
  type Started,
  startPinned,
  stop,
  waitForStatus,
} from '../processes.ts';
import { openDatabase } from './common.ts';
import { addPeerKey, seedPeerDatabase } from './servers.ts';

// The peers answer with the contract's bodies: checked against its own schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
formats.default(ajv);
const schemas = publicContract().document.components.schemas as Record<string, object>;
const [isPet, isPets, isError] = ['Pet', 'Pets', 'Error'].map((name) => ajv.compile(schemas[name]!));

function json(response: Response, validate: typeof isPet): unknown {
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body: unknown = JSON.parse(response.body.toString('utf8'));
  assert.ok(validate!(body), `${JSON.stringify(body)}: ${ajv.errorsText(validate!.errors)}`);
  return body;
}

function assertError(response: Response, status: number, code: string): void {
  assert.equal(response.status, status, response.body.toString());
  const body = json(response, isError) as { code: string; status: number };
  assert.equal(body.code, code);
  assert.equal(body.status, status);
}

function assertRateLimitHeaders(response: Response): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    assert.match(String(response.headers[name]), /^\d+$/, name);
}

const PEERS = [
  ['Fastify peer', 'fastify-peer.ts'],
  ['Express peer', 'express-peer.ts'],
] as const;

for (const [label, file] of PEERS) {
  describe(label, () => {
    let dir: string;
    let started: Started;
    let origin: string;
    let key: string;
    let smallKey: string;
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'peer-test-'));
      const database = join(dir, 'pets.db');
      key = seedPeerDatabase(database, 5, 1_000);
      smallKey = addPeerKey(database, 2);
      const port = await freePort();
      const env = { ...process.env, DATABASE_PATH: database, PORT: String(port) };
      const script = new URL(file, import.meta.url).pathname;
      started = startPinned(undefined, process.execPath, [script], { env, logFile: join(dir, 'peer.log') });
      origin = `http://127.0.0.1:${port}`;
      await waitForStatus(started, `${origin}/v1/pets`, auth(key));
    });

    after(async () => {
      await stop(started);
      rmSync(dir, { recursive: true, force: true });
    });

    test('GET /v1/pets → 200 pages by ascending id through Link rel="next", with X-RateLimit-*', async () => {
      const seen: number[] = [];
      let path: string | undefined = '/v1/pets?limit=2';
      while (path !== undefined) {
        const response = await fetchOnce(`${origin}${path}`, { headers: auth(key) });
        assert.equal(response.status, 200);
        assertRateLimitHeaders(response);
        seen.push(...(json(response, isPets) as { id: number }[]).map((pet) => pet.id));
        path = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link ?? ''))?.[1];
      }
      assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    });

    test('GET /v1/pets → 400 invalid_cursor when the cursor is for another status or altered', async () => {
      const first = await fetchOnce(`${origin}/v1/pets?limit=1`, { headers: auth(key) });
      const cursor = new URL(`http://x${/<([^>]+)>/.exec(String(first.headers.link))![1]}`).searchParams.get(
        'cursor',
      )!;
      const other = await fetchOnce(`${origin}/v1/pets?status=sold&cursor=${cursor}`, { headers: auth(key) });
      assertError(other, 400, 'invalid_cursor');
      const flipped = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
      const altered = await fetchOnce(`${origin}/v1/pets?cursor=${flipped}`, { headers: auth(key) });
      assertError(altered, 400, 'invalid_cursor');
      assertError(
        await fetchOnce(`${origin}/v1/pets?limit=0`, { headers: auth(key) }),
        400,
        'invalid_parameter',
      );
    });

    test('GET /v1/pets/{petId} → 200 with the deprecation headers; 404 not_found when unknown', async () => {
      const response = await fetchOnce(`${origin}/v1/pets/3`, { headers: auth(key) });
      assert.equal(response.status, 200);
      assert.equal((json(response, isPet) as { id: number }).id, 3);
      assert.equal(response.headers.deprecation, '@1767225600');
      assertRateLimitHeaders(response);
      assertError(await fetchOnce(`${origin}/v1/pets/999`, { headers: auth(key) }), 404, 'not_found');
      assertError(await fetchOnce(`${origin}/v1/pets/007`, { headers: auth(key) }), 400, 'invalid_parameter');
    });

    test('POST /v1/pets → 201 stored durably and readable; 400 invalid_body, 415 otherwise', async () => {
      const headers = { ...auth(key), 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'Rex', categoryId: 3, status: 'pending' });
      const created = await fetchOnce(`${origin}/v1/pets`, { method: 'POST', headers, body });
      assert.equal(created.status, 201);
      const pet = json(created, isPet) as { id: number };
      assert.equal(created.headers.location, `/v1/pets/${pet.id}`);
      const read = await fetchOnce(`${origin}/v1/pets/${pet.id}`, { headers: auth(key) });
      assert.deepEqual(JSON.parse(read.body.toString()), {
        id: pet.id,
        name: 'Rex',
        categoryId: 3,
        status: 'pending',
      });
      const extra = JSON.stringify({ name: 'Rex', categoryId: 3, colour: 'red' });
      assertError(
        await fetchOnce(`${origin}/v1/pets`, { method: 'POST', headers, body: extra }),
        400,
        'invalid_body',
      );
      const broken = await fetchOnce(`${origin}/v1/pets`, { method: 'POST', headers, body: '{"name":' });
      assertError(broken, 400, 'invalid_json');
      const plain = { ...auth(key), 'content-type': 'text/plain' };
      assertError(
        await fetchOnce(`${origin}/v1/pets`, { method: 'POST', headers: plain, body }),
        415,
        'unsupported_media_type',
      );
    });

    test('any /v1 request → 401 unauthorized with WWW-Authenticate when the key is missing or unknown', async () => {
      const missing = await fetchOnce(`${origin}/v1/pets`);
      assertError(missing, 401, 'unauthorized');
      assert.equal(missing.headers['www-authenticate'], 'Bearer');
      assertError(
        await fetchOnce(`${origin}/v1/pets/1`, { headers: auth('peer_unknown') }),
        401,
        'unauthorized',
      );
    });

    test('a key over its limit → 429 rate_limited with Retry-After and X-RateLimit-Remaining 0', async () => {
      for (const remaining of ['1', '0']) {
        const allowed = await fetchOnce(`${origin}/v1/pets?limit=1`, { headers: auth(smallKey) });
        assert.equal(allowed.status, 200);
        assert.equal(allowed.headers['x-ratelimit-limit'], '2');
        assert.equal(allowed.headers['x-ratelimit-remaining'], remaining);
      }
      const refused = await fetchOnce(`${origin}/v1/pets?limit=1`, { headers: auth(smallKey) });
      assertError(refused, 429, 'rate_limited');
      assert.match(String(refused.headers['retry-after']), /^\d+$/);
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      // Another key keeps its own budget.
      assert.equal((await fetchOnce(`${origin}/v1/pets?limit=1`, { headers: auth(key) })).status, 200);
    });
  });
}

test('peer databases commit durably: WAL with synchronous=FULL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'peer-test-'));
  try {
    const db = openDatabase(join(dir, 'pets.db'));
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), 2);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
