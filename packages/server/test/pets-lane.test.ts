import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { inject } from 'light-my-request';
import { makeTestApp, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';

/**
 * The API's lane (features/pets/lane.ts) answers GET /v1/pets and GET /v1/pets/{petId} itself; the
 * framework answers everything else. Two apps share one database and one clock, each with its own
 * limiter: every generated sequence of requests is sent to one through `app.dispatch` (the lane first,
 * as the server does) and to the other through the framework alone. Status, headers, body and log line
 * must be the same, request ids and times aside.
 */
const PATHS = [
  '/v1/pets',
  '/v1/pets?',
  '/v1/pets?limit=2',
  '/v1/pets?limit=100&status=sold',
  '/v1/pets?limit=0',
  '/v1/pets?limit=1&limit=2',
  '/v1/pets?status=lost',
  '/v1/pets?cursor=bogus',
  '/v1/pets?unknown=1',
  '/v1/pets?limit=%32',
  '/v1/pets/1',
  '/v1/pets/2?ignored=1',
  '/v1/pets/0',
  '/v1/pets/007',
  '/v1/pets/424242',
  '/v1/pets/99999999999999999999999',
  '/v1/pets/',
  '/v1/pets/1/',
  '/v1/pets/%31',
  '/v1/pets;x',
  '/v1/pets/1#frag',
  '/V1/pets',
  '/v1/petsx',
];
const KEYS = ['valid', 'project', 'tight', 'none', 'malformed', 'revoked'] as const;
const HOSTS = ['localhost', '127.0.0.1:3000', 'acme.sites.localhost', undefined] as const;

interface Sent {
  method: 'GET' | 'HEAD';
  path: string;
  key: (typeof KEYS)[number];
  host: (typeof HOSTS)[number];
  origin: boolean;
  requestId: boolean;
  forwardedFor: string | undefined;
  forwardedProto: string | undefined;
}

const sent = fc.record<Sent>({
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
  path: fc.constantFrom(...PATHS),
  key: fc.constantFrom(...KEYS),
  host: fc.constantFrom(...HOSTS),
  origin: fc.boolean(),
  requestId: fc.boolean(),
  forwardedFor: fc.constantFrom(
    undefined,
    '203.0.113.5',
    '203.0.113.6, 198.51.100.1',
    'junk',
    'junk, 203.0.113.7',
    '203.0.113.8, junk',
  ),
  forwardedProto: fc.constantFrom(undefined, 'https', 'http', 'http, https'),
});

interface Create {
  path: string;
  key: (typeof KEYS)[number];
  host: (typeof HOSTS)[number];
  origin: boolean;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** Two characters: a key of this sequence (made distinct per app); else sent as it is. */
  idempotencyKey: string | undefined;
  forwardedProto: string | undefined;
  body: string | Buffer;
}

const CREATE_BODIES = [
  '{"name":"Rex","categoryId":7}',
  '{"name":"Rex","categoryId":7}',
  '{"name":"Biscuit","categoryId":3,"status":"sold"}',
  '{"name":"Rex","categoryId":7.0}',
  '{"name":"Rex","categoryId":7,"status":"lost"}',
  '{"name":"Rex","categoryId":7,"extra":true}',
  '{"name":"a","name":"b","categoryId":1}',
  '{"name":"","categoryId":1}',
  '{"categoryId":1}',
  '{',
  '[]',
  'null',
  '\uFEFF{"name":"Rex","categoryId":7}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]),
  `{"name":"${'x'.repeat(70_000)}","categoryId":1}`,
  '',
];

const create = fc.record<Create>({
  path: fc.constantFrom(
    '/v1/pets',
    '/v1/pets',
    '/v1/pets',
    '/v1/pets?x=1',
    '/v1/pets/',
    '/v1/pets/1',
    '/%76%31/pets',
    '/v1/pet%73',
    '/V1/pets',
  ),
  key: fc.constantFrom(...KEYS),
  host: fc.constantFrom(...HOSTS),
  origin: fc.boolean(),
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'Application/JSON',
    'text/plain',
    undefined,
  ),
  contentEncoding: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'identity'),
  idempotencyKey: fc.constantFrom(undefined, undefined, 'k1', 'k2', '', 'x'.repeat(300)),
  forwardedProto: fc.constantFrom(undefined, 'https'),
  body: fc.constantFrom(...CREATE_BODIES),
});

/** A request id the service made (each app makes its own). */
const REQUEST_ID = /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
const IGNORED_HEADERS = new Set(['x-request-id', 'date', 'keep-alive', 'transfer-encoding']);

function comparable(response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .map(([name, value]) => [name.toLowerCase(), String(value)] as const)
      .filter(([name]) => !IGNORED_HEADERS.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  // Both apps create in one database: a pet's id is whichever came next.
  const id = headers.location && /\d+$/.exec(headers.location)?.[0];
  if (id) {
    headers.location = headers.location!.replace(/\d+$/, '<id>');
    headers['content-length'] = `${Number(headers['content-length']) - id.length} + <id>`;
  }
  const body = response.body.replaceAll(REQUEST_ID, '<request id>').replace(/^\{"id":\d+,/, '{"id":"<id>",');
  return { status: response.statusCode, headers, body };
}

/** The headers every generated request may carry: its key, host and `Origin`. */
function baseHeaders(
  request: { host: string | undefined; origin: boolean },
  secret: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
  if (request.host !== undefined) headers.host = request.host;
  if (request.origin) headers.origin = 'https://app.example';
  return headers;
}

const logged = (lines: string[]) =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request')
    .map(({ method, url, statusCode, keyId }) => ({ method, url, statusCode, keyId }));

function sameAnswers(title: string, trustProxy: boolean) {
  describe(title, () => {
    let lane: TestApp;
    let framework: TestApp;
    const laneLines: string[] = [];
    const frameworkLines: string[] = [];
    const secrets = {} as Record<(typeof KEYS)[number], string | undefined>;

    before(async () => {
      lane = await makeTestApp({ logLines: laneLines, trustProxy });
      framework = await makeTestApp({
        storage: lane.storage,
        clock: lane.clock,
        logLines: frameworkLines,
        trustProxy,
      });
      secrets.valid = lane.key;
      secrets.project = (await projectWithKey(lane, 'acme')).secret;
      secrets.tight = (await lane.createKey('free', { perMinute: 3, perDay: 1_000 })).secret;
      secrets.none = undefined;
      secrets.malformed = 'ps_test_not-a-key';
      const revoked = await lane.createKey('business');
      await lane.storage.keys.revoke(revoked.id, lane.clock.now() - 1);
      secrets.revoked = revoked.secret;
    });
    after(async () => {
      await framework.app.close();
      await lane.close();
    });

    it('creates: status, headers, body and log line of generated sequences of requests', async () => {
      let sequence = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(create, { minLength: 1, maxLength: 6 }), async (requests) => {
          lane.clock.advance(60_000);
          sequence++;
          for (const request of requests) {
            const headers = baseHeaders(request, secrets[request.key]);
            if (request.contentType !== undefined) headers['content-type'] = request.contentType;
            if (request.contentEncoding !== undefined) headers['content-encoding'] = request.contentEncoding;
            if (request.forwardedProto) headers['x-forwarded-proto'] = request.forwardedProto;
            // Each app has its own Idempotency-Keys, as they share one database.
            const key = (app: string) =>
              request.idempotencyKey === undefined || request.idempotencyKey.length !== 2
                ? request.idempotencyKey
                : `${app}-${sequence}-${request.idempotencyKey}`;
            const options = (app: string) => {
              const idempotencyKey = key(app);
              return {
                method: 'POST' as const,
                url: request.path,
                headers:
                  idempotencyKey === undefined ? headers : { ...headers, 'idempotency-key': idempotencyKey },
                payload: request.body,
              };
            };
            laneLines.length = 0;
            frameworkLines.length = 0;
            const before = await lane.storage.pets.count();
            const viaLane = await inject(lane.app.dispatch, options('lane'));
            const viaFramework = await framework.app.inject(options('framework'));
            assert.deepEqual(comparable(viaLane), comparable(viaFramework), JSON.stringify(request));
            // A create that is not answered 201 writes nothing; a replay writes nothing either.
            const created = [viaLane, viaFramework].filter(
              (answer) => answer.statusCode === 201 && answer.headers['idempotent-replayed'] === undefined,
            ).length;
            assert.equal(await lane.storage.pets.count(), before + created, JSON.stringify(request));
            assert.deepEqual(logged(laneLines), logged(frameworkLines), JSON.stringify(request));
          }
        }),
        { numRuns: 150 },
      );
    });

    it('creates with an Idempotency-Key: created, replayed, then reused with another body', async () => {
      lane.clock.advance(60_000);
      const bodies = [
        '{"name":"Rex","categoryId":7}',
        '{"name":"Rex","categoryId":7}',
        '{"name":"Max","categoryId":7}',
      ];
      for (const [index, payload] of bodies.entries()) {
        const options = (app: string) => ({
          method: 'POST' as const,
          url: '/v1/pets',
          headers: {
            authorization: `Bearer ${secrets.valid}`,
            'content-type': 'application/json',
            'idempotency-key': `${app}-replay`,
          },
          payload,
        });
        const viaLane = await inject(lane.app.dispatch, options('lane'));
        const viaFramework = await framework.app.inject(options('framework'));
        assert.equal(viaLane.statusCode, [201, 201, 422][index]);
        assert.deepEqual(comparable(viaLane), comparable(viaFramework));
      }
    });

    it('status, headers, body and log line of generated sequences of requests', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(sent, { minLength: 1, maxLength: 8 }), async (requests) => {
          // A new minute for each sequence: both limiters start it from the same state.
          lane.clock.advance(60_000);
          for (const request of requests) {
            const headers = baseHeaders(request, secrets[request.key]);
            if (request.requestId) headers['x-request-id'] = 'trace-1234';
            if (request.forwardedFor) headers['x-forwarded-for'] = request.forwardedFor;
            if (request.forwardedProto) headers['x-forwarded-proto'] = request.forwardedProto;
            const options = { method: request.method, url: request.path, headers };
            laneLines.length = 0;
            frameworkLines.length = 0;
            const viaLane = await inject(lane.app.dispatch, options);
            const viaFramework = await framework.app.inject(options);
            assert.deepEqual(comparable(viaLane), comparable(viaFramework), JSON.stringify(request));
            assert.deepEqual(logged(laneLines), logged(frameworkLines), JSON.stringify(request));
          }
        }),
        { numRuns: 150 },
      );
    });
  });
}

sameAnswers('the API lane answers exactly as the framework would', false);
sameAnswers('the API lane answers exactly as the framework would, behind a trusted proxy', true);
