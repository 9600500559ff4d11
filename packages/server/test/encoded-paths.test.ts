import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { RouteSpec } from '../src/routes/table.ts';
import { concretePath, makeTestApp, type TestApp } from './harness.ts';

/** One way of spelling a path differently: each is something a router or a proxy might normalise. */
const SPELLINGS = ['none', 'dot', 'dotdot', 'double', 'trailing', 'semicolon', 'encoded-slash'] as const;
const CHARACTER = ['keep', 'keep', 'encode', 'encode-lower', 'case'] as const;

const hex = (char: string, lower: boolean) => {
  const bytes = new TextEncoder().encode(char);
  const text = [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return lower ? text : text.toUpperCase();
};

function respell(
  path: string,
  ops: (typeof CHARACTER)[number][],
  spelling: (typeof SPELLINGS)[number],
  at: number,
): string {
  const chars = [...path].map((char, i) => {
    if (char === '/') return char;
    const op = ops[i % ops.length]!;
    if (op === 'encode' || op === 'encode-lower') return hex(char, op === 'encode-lower');
    if (op === 'case') return char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
    return char;
  });
  const segments = chars.join('').split('/');
  const index = 1 + (at % Math.max(1, segments.length - 1));
  switch (spelling) {
    case 'dot':
      segments.splice(index, 0, '.');
      break;
    case 'dotdot':
      segments.splice(index, 0, 'x', '..');
      break;
    case 'double':
      segments.splice(index, 0, '');
      break;
    case 'trailing':
      segments.push('');
      break;
    case 'semicolon':
      segments[index] = `${segments[index]};p=1`;
      break;
    case 'encoded-slash':
      return `/${segments.slice(1).join('%2F')}`;
    default:
  }
  return segments.join('/');
}

const spelled = (routes: readonly RouteSpec[]) =>
  fc.record({
    route: fc.constantFrom(...routes),
    ops: fc.array(fc.constantFrom(...CHARACTER), { minLength: 1, maxLength: 24 }),
    spelling: fc.constantFrom(...SPELLINGS),
    at: fc.nat(),
    method: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
    query: fc.constantFrom('', '?limit=1', '?status=available', '?cursor=x'),
  });

const PET = JSON.stringify({ name: 'Intruder', categoryId: 1 });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

// Without a key (API) or a session (dashboard), no spelling of a protected path may reach its handler:
// never a 2xx (but the public OPTIONS answer), never a write, never a 5xx. Run in-process and again over
// a real socket, where nothing normalises the raw path.
describe('encoded, re-cased and re-segmented paths', () => {
  let app: TestApp;
  let base: { host: string; port: number };
  before(async () => {
    app = await makeTestApp();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    base = { host: '127.0.0.1', port: (app.app.server.address() as AddressInfo).port };
  });
  after(() => app.close());

  const protectedRoutes = () => app.app.routeTable.filter((route) => route.config.access !== 'public');

  async function check(send: (method: string, path: string) => Promise<Answer>, runs: number) {
    const keysBefore = (await app.storage.keys.list()).length;
    await fc.assert(
      fc.asyncProperty(spelled(protectedRoutes()), async ({ route, ops, spelling, at, method, query }) => {
        app.clock.advance(61_000); // keep the anonymous bucket under its limit
        const path = respell(concretePath(route.url), ops, spelling, at) + query;
        const answer = await send(method, path);
        const where = `${method} ${path} → ${answer.status}`;
        assert.ok(answer.status < 500, `${where}: a 5xx`);
        if (method === 'OPTIONS' && answer.status === 204) {
          // Public by design: the preflight answers Allow from the route table, never the path's handler.
          assert.match(String(answer.headers.allow), /OPTIONS$/, `${where}: a 204 other than the preflight`);
          assert.equal(answer.body, '', where);
          return;
        }
        assert.ok(answer.status < 200 || answer.status >= 300, `${where}: a 2xx without a key`);
        if (route.config.access === 'apiKey') {
          assert.ok(answer.headers['x-ratelimit-limit'] !== undefined, `${where}: not rate limited`);
        }
      }),
      { numRuns: runs },
    );
    assert.equal(await app.storage.pets.count(), 0, 'no pet was written');
    assert.equal((await app.storage.keys.list()).length, keysBefore, 'no key was written or revoked');
    assert.ok((await app.storage.keys.list()).every((key) => key.revokedAt === null));
  }

  it('in-process: 400 spellings of every protected route, without a key', async () => {
    await check(async (method, path) => {
      const response = await app.app.inject({
        method: method as 'GET',
        url: path,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
        payload: method === 'GET' || method === 'HEAD' ? undefined : PET,
      });
      return {
        status: response.statusCode,
        headers: response.headers as Answer['headers'],
        body: response.body,
      };
    }, 400);
  });

  it('over a real socket: 150 spellings sent exactly as written', async () => {
    await check(
      (method, path) =>
        new Promise<Answer>((resolve, reject) => {
          const body = method === 'GET' || method === 'HEAD' ? undefined : PET;
          const request = httpRequest(
            {
              ...base,
              method,
              path,
              agent: false,
              headers: {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(body ?? '')),
                'idempotency-key': 'k',
                connection: 'close',
              },
            },
            (response) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (body += chunk));
              response.on('end', () =>
                resolve({ status: response.statusCode!, headers: response.headers, body }),
              );
            },
          );
          request.on('error', reject);
          request.end(body);
        }),
      150,
    );
  });

  it('GET /%76%31/pets and POST /%76%31/pets without a key → 401, nothing written (the reported bypass)', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await app.app.inject({
        method,
        url: '/%76%31/pets',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
        payload: method === 'POST' ? PET : undefined,
      });
      assert.equal(response.statusCode, 401);
      assert.ok(response.headers['x-ratelimit-limit']);
    }
    assert.equal(await app.storage.pets.count(), 0);
  });
});
