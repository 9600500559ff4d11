import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

/** Names every object literal inherits: a lookup by one of them must find nothing. */
const INHERITED = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
  'prototype',
];
/** Values each filter accepts, beside the inherited names and arbitrary text. */
const KNOWN = [
  '1h',
  '24h',
  '7d',
  '30d',
  '2xx',
  '4xx',
  '429',
  '5xx',
  '404',
  'listPets',
  'hour',
  'day',
  'added',
];

const value = fc.oneof(fc.constantFrom(...INHERITED, ...KNOWN, ''), fc.string({ maxLength: 12 }));
/** The query parameters each page reads, and a few it does not (their names inherited too). */
const PAGES: [string, string[]][] = [
  ['requests', ['key', 'status', 'operation', 'range', 'request_id', 'before']],
  ['activity', ['before']],
  ['usage.csv', ['step', 'key']],
  ['domains', ['done', 'domain']],
];
const RUNS = 40;

/**
 * Every filter of the dashboard read with own-property checks: whatever a query holds (`__proto__`,
 * `constructor`, `toString`, repeated, unknown), a page answers 200 or 400, never a 5xx, on SQLite and
 * on PostgreSQL (where `range=__proto__` once reached the database as NaN).
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`dashboard filters on ${backend}: inherited names are unknown values`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let owner: SignedIn;
    let cleanup: () => Promise<void> = async () => {};
    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-filters-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
      await projectWithKey(app, 'acme');
      owner = await app.signedInMember('acme');
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });
    const get = (url: string) =>
      app.request({ url, key: null, unchecked: true, headers: { cookie: owner.cookie } });

    it(
      'GET /requests?range=__proto__ (and constructor, toString) → 400 invalid_parameter naming range',
      { skip },
      async () => {
        for (const range of ['__proto__', 'constructor', 'toString']) {
          const response = await get(`/dashboard/projects/acme/requests?range=${range}`);
          assert.equal(response.status, 400, range);
          assert.match(response.body, /range must be one of 1h, 24h, 7d, 30d/i);
        }
        assert.equal((await get('/dashboard/projects/acme/requests?range=7d')).status, 200);
      },
    );

    it(`any values of every filter, ${RUNS} queries a page → 200 or 400, never a 5xx`, { skip }, async () => {
      for (const [page, names] of PAGES) {
        const query = fc.array(fc.tuple(fc.constantFrom(...names, ...names, ...INHERITED), value), {
          maxLength: 4,
        });
        await fc.assert(
          fc.asyncProperty(query, async (pairs) => {
            const search = new URLSearchParams(pairs).toString();
            const response = await get(`/dashboard/projects/acme/${page}?${search}`);
            assert.ok([200, 400, 404].includes(response.status), `${page}?${search} → ${response.status}`);
          }),
          { numRuns: RUNS },
        );
      }
    });
  });
}
