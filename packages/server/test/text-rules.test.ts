import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { cli } from '../../cli/test/run-cli.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

type Json = Record<string, unknown>;
const RUNS = { numRuns: 15 };

/** Characters nobody sees or that reorder what is shown, which an address or a label may not hold. */
const UNSEEN = fc.constantFrom(
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\u00ad',
  '\u202e',
  '\u202d',
  '\u2066',
  '\u200f',
  '\u034f',
  '\u3164',
  '\u{e0041}',
);
/** Dashes drawn like `-`. */
const DASHES = fc.constantFrom('\u2010', '\u2011', '\u2012', '\u2013', '\u2212');
const inserted = (text: string, char: string, at: number) => {
  const position = at % (text.length + 1);
  return `${text.slice(0, position)}${char}${text.slice(position)}`;
};

/**
 * One rule of characters a reader cannot see (text/unseen.ts), through every door that takes an
 * address or a label, on both databases: an invitation that reads as a member's address is that
 * member (409), any other address or label holding such a character is refused with the reason, and
 * emoji stay labels' to use.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`addresses and labels: nothing hidden (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let owner: TokenHolder;
    let member: SignedIn;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-text-rules-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
      owner = await tokenHolder(app, ['acme']);
      member = await app.signedInMember('acme', { email: 'dev-ops@example.com' });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const invite = (email: string) =>
      app.request({
        method: 'POST',
        url: '/manage/v1/projects/acme/invitations',
        key: owner.token,
        body: { email, role: 'viewer' },
      });
    const pending = async () =>
      (await app.storage.projects.pendingInvitations('prj_acme', app.clock.now())).length;
    const form = (path: string, fields: Record<string, string>) =>
      app.request({
        method: 'POST',
        url: path,
        key: null,
        unchecked: true,
        headers: { cookie: member.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: member.csrfToken, ...fields }).toString(),
      });

    it(
      'POST …/invitations with a member’s address and a hidden character or a lookalike dash anywhere → 409 conflict, no invitation',
      { skip },
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.oneof(UNSEEN, DASHES), fc.nat(), async (char, at) => {
            const email = /[\u2010-\u2013\u2212]/.test(char)
              ? 'dev-ops@example.com'.replace('-', char)
              : `${inserted('dev-ops', char, at)}@example.com`;
            const before = await pending();
            const response = await invite(email);
            assert.equal((JSON.parse(response.body) as Json).param, 'email');
            if (char.codePointAt(0)! > 0xffff) {
              // Beyond the contract's address pattern (which admits Unicode up to U+FFFF): refused as
              // no address at all, before the service compares it with the members'.
              assert.equal(response.status, 400, `${JSON.stringify(email)} → ${response.body}`);
            } else {
              assert.equal(response.status, 409, `${JSON.stringify(email)} → ${response.body}`);
              assert.match((JSON.parse(response.body) as Json).message as string, /dev-ops@example\.com/);
            }
            assert.equal(await pending(), before);
          }),
          RUNS,
        );
      },
    );

    it(
      'POST …/invitations with any other address holding a hidden character or a lookalike dash → 400 invalid_body naming it',
      { skip },
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.stringMatching(/^[a-z]{2,8}-[a-z]{2,8}$/).filter((name) => name !== 'dev-ops'),
            fc.oneof(UNSEEN, DASHES),
            fc.nat(),
            async (name, char, at) => {
              const email = /[\u2010-\u2013\u2212]/.test(char)
                ? `${name.replace('-', char)}@example.com`
                : `${inserted(name, char, at)}@example.com`;
              const response = await invite(email);
              assert.equal(response.status, 400, `${JSON.stringify(email)} → ${response.body}`);
              const body = JSON.parse(response.body) as Json;
              assert.deepEqual([body.code, body.param], ['invalid_body', 'email']);
              // Beyond U+FFFF the contract's pattern refuses the address before the service names it.
              if (char.codePointAt(0)! <= 0xffff) assert.match(body.message as string, /U\+[0-9A-F]{4}/);
            },
          ),
          RUNS,
        );
      },
    );

    it(
      'a key label, an access token name and a project name with a hidden character anywhere → refused with the reason; emoji are kept',
      { skip },
      async () => {
        const label = fc.stringMatching(/^[A-Za-z0-9 ]{1,20}$/);
        await fc.assert(
          fc.asyncProperty(label, UNSEEN, fc.nat(), async (text, char, at) => {
            const hidden = inserted(text, char, at);
            const key = await app.request({
              method: 'POST',
              url: '/manage/v1/projects/acme/keys',
              key: owner.token,
              body: { label: hidden },
            });
            assert.equal(key.status, 400, `${JSON.stringify(hidden)} → ${key.body}`);
            assert.deepEqual(
              [(JSON.parse(key.body) as Json).code, (JSON.parse(key.body) as Json).param],
              ['invalid_body', 'label'],
            );
            const tokens = await app.storage.sql.all('SELECT name FROM access_tokens');
            await form('/dashboard/account/tokens', {
              name: hidden,
              scope: 'read',
              'project:acme': 'on',
              expires: '7',
            });
            assert.equal((await app.storage.sql.all('SELECT name FROM access_tokens')).length, tokens.length);
            await form('/dashboard/projects/acme', { name: hidden });
            assert.notEqual((await app.storage.projects.bySlug('acme'))!.name, hidden.trim());
          }),
          RUNS,
        );
        const emoji = 'deploy 👨‍👩‍👧 🏳️‍🌈 1️⃣';
        const kept = await app.request({
          method: 'POST',
          url: '/manage/v1/projects/acme/keys',
          key: owner.token,
          body: { label: emoji },
        });
        assert.equal(kept.status, 201, kept.body);
        await form('/dashboard/projects/acme', { name: emoji });
        assert.equal((await app.storage.projects.bySlug('acme'))!.name, emoji);
      },
    );
  });
}

describe('petstore admin create: nothing hidden in a new account’s address', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-text-rules-cli-'));
    assert.equal((await cli(['migrate'], { cwd: dir })).code, 0);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('an address with a hidden character or a lookalike dash → exit 2 naming it, no account', async () => {
    for (const email of [
      'new\u200bone@example.com',
      'new\u2010one@example.com',
      'new\u202eone@example.com',
    ]) {
      const result = await cli(['admin', 'create', '--email', email], {
        cwd: dir,
        input: 'a long enough password for this\n',
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /U\+(200B|2010|202E)/);
    }
    const created = await cli(['admin', 'create', '--email', 'new-one@example.com'], {
      cwd: dir,
      input: 'a long enough password for this\n',
    });
    assert.equal(created.code, 0, created.stderr);
  });
});
