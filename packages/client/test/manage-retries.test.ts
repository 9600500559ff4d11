import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { createManageClient, PetstoreError } from '../src/index.ts';
import { MANAGE_INT64_FIELDS } from '../src/manage-json.ts';
import { apiError, json, recordingSleep, scriptedFetch } from './fake-fetch.ts';

const BASE = 'https://petstore.example/manage/v1';
const KEY = '{"id":"key_1","label":null,"prefix":null,"environment":"test","state":"revoked"}';

describe('createManageClient: retries, errors, streams', () => {
  it('a GET is retried after a 503 and after a dropped connection, with backoff', async () => {
    const { fetch, requests } = scriptedFetch([
      apiError(503, 'service_unavailable'),
      new TypeError('fetch failed'),
      json(200, '{"data":[]}'),
    ]);
    const { sleep, slept } = recordingSleep();
    const manage = createManageClient({ baseUrl: BASE, token: 'ps_at_x', fetch, sleep, random: () => 0.5 });
    const { data } = await manage.get('/projects');
    assert.deepEqual(data, { data: [] });
    assert.equal(requests.length, 3);
    assert.deepEqual(slept, [100, 200]);
    assert.equal(requests[0]!.headers.get('authorization'), 'Bearer ps_at_x');
  });

  it('a POST or DELETE is not sent again after a 5xx or a dropped connection: it may have been done', async () => {
    for (const step of [() => apiError(500, 'internal_error'), () => new TypeError('fetch failed')]) {
      const { fetch, requests } = scriptedFetch([step(), step()]);
      const manage = createManageClient({ baseUrl: BASE, token: 'ps_at_x', fetch, sleep: async () => {} });
      await assert.rejects(
        manage.post('/projects/{slug}/keys', { path: { slug: 'acme' }, body: { label: 'x' } }),
        PetstoreError,
      );
      await assert.rejects(
        manage.delete('/projects/{slug}/keys/{keyId}', { path: { slug: 'acme', keyId: 'k' } }),
        PetstoreError,
      );
      assert.deepEqual(
        requests.map((request) => request.method),
        ['POST', 'DELETE'],
      );
    }
  });

  it('a POST is sent again after a 429, exactly Retry-After later: the server did nothing', async () => {
    const { fetch, requests } = scriptedFetch([
      apiError(429, 'rate_limited', { 'retry-after': '2' }),
      json(200, KEY),
    ]);
    const { sleep, slept } = recordingSleep();
    const manage = createManageClient({ baseUrl: BASE, token: 'ps_at_x', fetch, sleep });
    const { data } = await manage.delete('/projects/{slug}/keys/{keyId}', {
      path: { slug: 'a b', keyId: 'key_1' },
    });
    assert.equal(data.state, 'revoked');
    assert.deepEqual(slept, [2_000]);
    assert.equal(requests[1]!.url, `${BASE}/projects/a%20b/keys/key_1`);
  });

  it('path parameters are required; query values are sent, undefined ones left out', async () => {
    const { fetch, requests } = scriptedFetch([json(200, '{"data":[],"hasMore":false,"next":null}')]);
    const manage = createManageClient({ baseUrl: `${BASE}/`, token: 'ps_at_x', fetch });
    await manage.get('/projects/{slug}/audit', {
      path: { slug: 'acme' },
      query: { limit: 5, cursor: undefined, since: '2026-01-01T00:00:00Z' },
    });
    assert.equal(requests[0]!.url, `${BASE}/projects/acme/audit?limit=5&since=2026-01-01T00%3A00%3A00Z`);
    // @ts-expect-error: the slug is required by the contract
    await assert.rejects(manage.get('/projects/{slug}', {}), /needs path\.slug/);
  });

  it('an NDJSON export that breaks off mid-line throws, after yielding the whole lines', async () => {
    const body = '{"id":"1","status":200}\n{"id":"2","sta';
    const { fetch } = scriptedFetch([
      new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } }),
    ]);
    const manage = createManageClient({ baseUrl: BASE, token: 'ps_at_x', fetch });
    const seen: unknown[] = [];
    await assert.rejects(
      (async () => {
        for await (const row of manage.ndjson('/projects/{slug}/requests', { path: { slug: 'a' } })) {
          seen.push(row);
        }
      })(),
      (error: unknown) => error instanceof PetstoreError && /middle of line 2/.test(error.message),
    );
    assert.equal(seen.length, 1);
  });

  it('an NDJSON request answered with an Error body throws it with its code', async () => {
    const { fetch } = scriptedFetch([apiError(403, 'forbidden')]);
    const manage = createManageClient({ baseUrl: BASE, token: 'ps_at_x', fetch });
    const rows = manage.ndjson('/projects/{slug}/requests', { path: { slug: 'a' } });
    await assert.rejects(
      rows.next(),
      (error: unknown) => error instanceof PetstoreError && error.code === 'forbidden',
    );
  });

  it('options are checked when the client is made', () => {
    assert.throws(() => createManageClient({ baseUrl: 'ftp://x', token: 't' }), /baseUrl must be an http/);
    assert.throws(() => createManageClient({ baseUrl: BASE, token: '' }), /token must be a non-empty/);
  });

  it("every int64 field of openapi/manage.yaml is read as bigint (MANAGE_INT64_FIELDS is the contract's list)", () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'openapi', 'manage.yaml'), 'utf8');
    const names = new Set<string>();
    const visit = (node: unknown) => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      const properties = record.properties as Record<string, { format?: string }> | undefined;
      for (const [name, schema] of Object.entries(properties ?? {})) {
        if (schema?.format === 'int64') names.add(name);
      }
      Object.values(record).forEach(visit);
    };
    visit((parse(text) as { components: unknown }).components);
    visit((parse(text) as { paths: unknown }).paths);
    assert.deepEqual([...names].sort(), [...MANAGE_INT64_FIELDS].sort());
  });
});
