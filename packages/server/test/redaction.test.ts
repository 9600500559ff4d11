import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const RUNS = { numRuns: 60 };

/** A secret of each kind this service issues or a client may send, and what it is called in a URL. */
const SHAPED = {
  'a live API key': () => `ps_live_${randomBytes(24).toString('base64url')}`,
  'a test API key': () => `ps_test_${randomBytes(24).toString('base64url')}`,
  'an access token': () => `ps_at_${randomBytes(32).toString('base64url')}`,
};
/** Secrets known by their parameter's name, whatever the value looks like. */
const NAMED = ['refresh', 'refresh_token', 'token', 'password', 'api_key', 'code'];

/** Percent-encoded `times` times over, `_` included (as a client trying to slip past would). */
const encoded = (text: string, times: number) => {
  let out = text;
  for (let i = 0; i < times; i++) out = encodeURIComponent(out).replaceAll('_', '%5F');
  return out;
};

interface Placed {
  what: string;
  url: string;
  headers: Record<string, string>;
  /** The text that must appear nowhere. */
  secret: string;
}

/** A shaped secret anywhere in a request: a path segment, a parameter's name or value, X-Request-Id. */
const shapedPlacement: fc.Arbitrary<Placed> = fc
  .record({
    kind: fc.constantFrom(...(Object.keys(SHAPED) as (keyof typeof SHAPED)[])),
    where: fc.constantFrom('segment', 'inner segment', 'query value', 'query name', 'matrix', 'request id'),
    times: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ kind, where, times }): Placed => {
    const secret = SHAPED[kind]();
    const text = encoded(secret, times);
    const urls: Record<string, string> = {
      segment: `/v1/pets/${text}`,
      'inner segment': `/v1/${text}/pets`,
      'query value': `/v1/pets?limit=1&q=${text}`,
      'query name': `/v1/pets?${text}=1`,
      matrix: `/v1/pets;session=1;x=${text}`,
      'request id': '/v1/pets?limit=1',
    };
    return {
      what: `${kind} as ${where} (encoded ${times}×)`,
      url: urls[where]!,
      headers: where === 'request id' ? { 'x-request-id': secret } : {},
      secret,
    };
  });

/** A secret by its name: in the query (after `?`, `&` or `;`), or as a path segment's parameter. */
const namedPlacement: fc.Arbitrary<Placed> = fc
  .record({
    name: fc.constantFrom(...NAMED),
    where: fc.constantFrom('query', 'later query', 'query after ;', 'matrix', 'matrix then query', 'segment'),
  })
  .map(({ name, where }) => {
    const secret = randomBytes(18).toString('base64url');
    const pair = `${name}=${secret}`;
    const urls: Record<string, string> = {
      query: `/v1/pets?${pair}`,
      'later query': `/v1/pets?limit=1&${pair}`,
      'query after ;': `/v1/pets?limit=1;${pair}`,
      matrix: `/v1/pets;${pair}`,
      'matrix then query': `/v1/pets;${pair}?limit=1`,
      segment: `/v1/${pair}/pets`,
    };
    return { what: `${name}= as ${where}`, url: urls[where]!, headers: {}, secret };
  });

/**
 * A secret of each kind, placed anywhere in a request made with a project's key, never appears in a
 * log line, in the project's request log, or in its export (the management API's NDJSON and the
 * dashboard's CSV), on both databases.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`redaction: secrets in requests (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let owner: TokenHolder;
    let key: string;
    let cookie: string;
    const lines: string[] = [];
    const secrets: Placed[] = [];
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-redaction-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open(), logLines: lines });
      owner = await tokenHolder(app, ['acme']);
      ({ cookie } = await app.signedInMember('acme'));
      const created = await app.request({
        method: 'POST',
        url: '/manage/v1/projects/acme/keys',
        key: owner.token,
        body: { label: 'logged' },
      });
      key = (JSON.parse(created.body) as { secret: string }).secret;
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const leaks = (text: string) => secrets.filter(({ secret }) => text.includes(secret));

    it('a secret anywhere in a request → in no log line and in no request-log row', { skip }, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(shapedPlacement, namedPlacement), async (placed) => {
          secrets.push(placed);
          const from = lines.length;
          const response = await app.request({
            url: placed.url,
            key,
            headers: placed.headers,
            unchecked: true,
          });
          const requestId = response.headers['x-request-id']!;
          assert.ok(!requestId.includes(placed.secret), `${placed.what}: kept as the request id`);
          await app.app.requestLog!.settle();
          const [row] = await app.storage.requestLog.list({ projectId: 'prj_acme', requestId, limit: 1 });
          assert.ok(row, `${placed.what}: logged (${response.status})`);
          assert.deepEqual(leaks(JSON.stringify(row)), [], `${placed.what}: in the request log`);
          const logged = lines.slice(from).join('\n');
          assert.ok(logged.includes(requestId), `${placed.what}: the request's line`);
          assert.deepEqual(leaks(logged), [], `${placed.what}: in the log`);
        }),
        RUNS,
      );
    });

    it('every secret sent above → in no export of the request log (NDJSON, CSV)', { skip }, async () => {
      assert.ok(secrets.length >= RUNS.numRuns);
      const ndjson = await app.request({
        url: '/manage/v1/projects/acme/requests',
        key: owner.token,
        headers: { accept: 'application/x-ndjson' },
      });
      assert.equal(ndjson.status, 200);
      assert.ok(ndjson.body.split('\n').length > RUNS.numRuns);
      const csv = await app.request({
        url: '/dashboard/projects/acme/requests.csv',
        key: null,
        unchecked: true,
        headers: { cookie },
      });
      assert.equal(csv.status, 200);
      for (const body of [ndjson.body, csv.body]) {
        assert.deepEqual(
          leaks(body).map(({ what }) => what),
          [],
        );
      }
      assert.deepEqual(leaks(lines.join('\n')), []);
    });
  });
}
