import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const RUNS = { numRuns: 30 };
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Decimal text of any length, as a position's numbers are written: from 0 to far beyond 64 bits. */
const digits = fc.oneof(
  fc.stringMatching(/^[0-9]{1,25}$/),
  fc.constantFrom('9223372036854775807', '9223372036854775808', '18446744073709551616', '0', '9'.repeat(64)),
);
/** What a page's position holds: `<at>.<id>`, with a numeric or textual id. */
const position = fc
  .tuple(digits, fc.oneof(digits, fc.stringMatching(/^[A-Za-z0-9_]{1,64}$/)))
  .map(([at, id]) => `${at}.${id}`);
/** A cursor: an encoded position (in range or not), or any text the parameter's pattern allows. */
const cursor = fc.oneof(position.map(base64url), fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/));

/** Positions whose numbers are beyond what a row can have: an instant past 2^53, an id past 2^63 − 1. */
const OUT_OF_RANGE = [
  '1.9223372036854775808',
  '1.99999999999999999999',
  `1.${'9'.repeat(64)}`,
  '99999999999999999.1',
  '9999999999999999.1',
];

/** A management API list answers a cursor with its page or 400 invalid_cursor: never anything else. */
function assertCursorAnswer(response: TestResponse, what: string): void {
  if (response.status === 200) return;
  assert.equal(response.status, 400, `${what} → ${response.status} ${response.body}`);
  const error = JSON.parse(response.body) as { code: string; param?: string };
  assert.equal(error.code, 'invalid_cursor', `${what} → ${response.body}`);
  assert.equal(error.param, 'cursor');
}

/**
 * Every route that takes a page's position, on both databases, with generated cursors: a page or
 * `400 invalid_cursor` (the dashboard's tabs: a 400 page), never a 5xx; a position whose numbers
 * are beyond any row's is refused before it reaches the database.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`cursors of every list (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let owner: TokenHolder;
    let cookie: string;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-cursors-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
      owner = await tokenHolder(app, ['acme']);
      await app.storage.projects.setPlan('acme', 'pro', null, null);
      ({ cookie } = await app.signedInMember('acme'));
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const LISTS = ['keys', 'audit', 'invitations', 'requests', 'domains'];
    const list = (name: string, value: string) =>
      app.request({
        url: `/manage/v1/projects/acme/${name}?cursor=${encodeURIComponent(value)}`,
        key: owner.token,
      });
    const tab = (name: string, value: string) =>
      app.request({
        url: `/dashboard/projects/acme/${name}?before=${encodeURIComponent(value)}`,
        key: null,
        unchecked: true,
        headers: { cookie },
      });

    for (const name of LISTS) {
      it(
        `GET /manage/v1/projects/{slug}/${name}?cursor=<generated> → its page or 400 invalid_cursor, never a 5xx`,
        {
          skip,
        },
        async () => {
          await fc.assert(
            fc.asyncProperty(cursor, async (value) => assertCursorAnswer(await list(name, value), value)),
            RUNS,
          );
        },
      );
    }

    for (const name of ['audit', 'requests']) {
      it(
        `GET /manage/v1/projects/{slug}/${name}?cursor=<an id past 2^63 − 1 or an instant past 2^53> → 400 invalid_cursor`,
        {
          skip,
        },
        async () => {
          for (const text of OUT_OF_RANGE) {
            const response = await list(name, base64url(text));
            assert.equal(response.status, 400, `${text} → ${response.body}`);
            assert.equal((JSON.parse(response.body) as { code: string }).code, 'invalid_cursor');
          }
        },
      );
    }

    for (const name of ['activity', 'requests']) {
      it(
        `GET /dashboard/projects/{slug}/${name}?before=<generated> → the tab or a 400 page, never a 5xx`,
        {
          skip,
        },
        async () => {
          await fc.assert(
            fc.asyncProperty(fc.oneof(position, fc.string({ maxLength: 30 })), async (value) => {
              const response = await tab(name, value);
              assert.ok([200, 400].includes(response.status), `${value} → ${response.status}`);
            }),
            RUNS,
          );
          for (const text of OUT_OF_RANGE) assert.equal((await tab(name, text)).status, 400, text);
        },
      );
    }

    it('GET /v1/pets?cursor=<generated> → 200 or 400 invalid_cursor, never a 5xx', { skip }, async () => {
      await fc.assert(
        fc.asyncProperty(cursor, async (value) => {
          const response = await app.request({ url: `/v1/pets?cursor=${encodeURIComponent(value)}` });
          assertCursorAnswer(response, value);
        }),
        RUNS,
      );
    });
  });
}
