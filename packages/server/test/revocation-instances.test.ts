import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { RESET_TTL_MS } from '../src/features/identity/password-reset.ts';
import type { HostChange } from '../src/storage/change-records.ts';
import { HOST_CHANGES_CHANNEL } from '../src/storage/postgres-listen.ts';
import { FakeClock } from '../src/time/clock.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { eventually } from './eventually.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const ROUNDS = 30;
/** Neither instance reads the feed on a timer within a test: only commits and notifications count. */
const HOUR = 3_600_000;
const PASSWORD = 'correct horse battery staple';
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A revoked key or access token, revoked through one instance, is refused by the other instance from
 * the revocation's answer on (docs/reliability.md, "Revocations at once on every instance"), on one
 * PostgreSQL database and on one SQLite file, with neither instance reading the feed on a timer.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`revocations at once on every instance (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
    const lines: string[] = [];
    let one: TestApp;
    let two: TestApp;
    let owner: TokenHolder;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-revocation-',
      );
      cleanup = shared.cleanup;
      one = await makeTestApp({
        storage: await shared.open(),
        clock,
        changePollMs: HOUR,
        logLines: lines,
        logLevel: 'warn',
      });
      two = await makeTestApp({ storage: await shared.open(), clock, changePollMs: HOUR });
      owner = await tokenHolder(one, ['acme']);
      if (postgres) await eventually(async () => (await knows(one)) && (await knows(two)));
    });
    after(async () => {
      if (skip) return;
      await one.close();
      await two.close();
      await cleanup();
    });

    /** Whether an instance has heard the other say hello (PostgreSQL): only then does it wait for it. */
    const knows = async (app: TestApp) => app.app.changeFeed.peers() >= 1;
    const pets = (app: TestApp, key: string) => app.request({ url: '/v1/pets', key }).then((r) => r.status);
    const projects = (app: TestApp, token: string) =>
      app.request({ url: '/manage/v1/projects/acme/keys', key: token }).then((r) => r.status);

    it(
      `a key revoked through one instance's management API → 401 on the other from its very next request (${ROUNDS} rounds)`,
      { skip },
      async () => {
        for (let round = 0; round < ROUNDS; round++) {
          // A minute apart: refused requests count against the client address's budget.
          clock.advance(60_000);
          const created = await one.request({
            method: 'POST',
            url: '/manage/v1/projects/acme/keys',
            key: owner.token,
            body: {},
          });
          const { key, secret } = JSON.parse(created.body) as { key: { id: string }; secret: string };
          assert.deepEqual([await pets(one, secret), await pets(two, secret)], [200, 200], 'cached on both');
          const revoked = await one.request({
            method: 'DELETE',
            url: `/manage/v1/projects/acme/keys/${key.id}`,
            key: owner.token,
          });
          assert.equal(revoked.status, 200);
          assert.equal(await pets(two, secret), 401, `round ${round}: the other instance`);
          assert.equal(await pets(one, secret), 401, `round ${round}: the revoking instance`);
        }
      },
    );

    it(
      `an access token revoked on one instance's dashboard → 401 on the other from its very next request (${ROUNDS} rounds)`,
      { skip },
      async () => {
        const email = `revoker-${backend}@example.com`;
        await addAccount(one, email, PASSWORD, ['acme']);
        const browser = new Browser(one);
        await browser.signIn(email, PASSWORD);
        for (let round = 0; round < ROUNDS; round++) {
          // A minute apart: refused requests count against the client address's budget.
          clock.advance(60_000);
          const page = await browser.get('/dashboard/account/tokens');
          const posted = await browser.post('/dashboard/account/tokens', {
            _csrf: csrfOf(page),
            name: `t${round}`,
            scope: 'read',
            'project:acme': 'on',
            expires: '7',
          });
          const shown = await browser.get(posted.headers.location!);
          const secret = /<output id="new-secret">(ps_at_[A-Za-z0-9_-]{43})<\/output>/.exec(shown.body)![1]!;
          const [row] = await one.storage.sql.all('SELECT id FROM access_tokens WHERE name = $1', [
            `t${round}`,
          ]);
          assert.deepEqual(
            [await projects(one, secret), await projects(two, secret)],
            [200, 200],
            'cached on both',
          );
          const list = await browser.get('/dashboard/account/tokens');
          const revoked = await browser.post(`/dashboard/account/tokens/${row!.id as string}/revoke`, {
            _csrf: csrfOf(list),
          });
          assert.equal(revoked.status, 303);
          assert.equal(await projects(two, secret), 401, `round ${round}: the other instance`);
          assert.equal(await projects(one, secret), 401, `round ${round}: the revoking instance`);
        }
      },
    );

    it(
      'a password reset on one instance → every token of the account 401 on the other from its next request',
      { skip },
      async () => {
        const holder = await tokenHolder(one, ['acme']);
        const second = await one.app.accessTokens.create(
          { kind: 'account', accountId: holder.accountId, email: holder.email, address: null },
          { name: 'second', scope: 'read', projects: ['acme'], expiresInDays: 7 },
        );
        assert.ok(second.ok);
        const tokens = [holder.token, second.value.secret];
        for (const app of [one, two])
          for (const token of tokens) assert.equal(await projects(app, token), 200);
        clock.advance(60_000);
        const link = randomBytes(32).toString('base64url');
        await one.storage.accounts.createPasswordReset({
          tokenDigest: createHash('sha256').update(link).digest('hex'),
          accountId: holder.accountId,
          createdAt: clock.now(),
          expiresAt: clock.now() + RESET_TTL_MS,
        });
        const browser = new Browser(one);
        const form = await browser.get(`/dashboard/reset-password?token=${link}`);
        const reset = await browser.post('/dashboard/reset-password', {
          _csrf: csrfOf(form),
          token: link,
          password: 'quiet meadow lantern 42',
          repeat: 'quiet meadow lantern 42',
        });
        assert.equal(reset.status, 303);
        for (const token of tokens) assert.equal(await projects(two, token), 401);
      },
    );

    // PostgreSQL only: on SQLite every process reads a change itself before its next answer.
    if (backend === 'postgres')
      it(
        'PostgreSQL: the revocation is answered only once the other instance has applied it; a request there meanwhile waits for it',
        { skip },
        async () => {
          clock.advance(60_000);
          const created = await one.request({
            method: 'POST',
            url: '/manage/v1/projects/acme/keys',
            key: owner.token,
            body: {},
          });
          const { key, secret } = JSON.parse(created.body) as { key: { id: string }; secret: string };
          assert.deepEqual([await pets(one, secret), await pets(two, secret)], [200, 200]);
          // The other instance's next read of the feed is held; the revoking instance's is watched.
          let release!: () => void;
          const held = new Promise<void>((resolve) => (release = resolve));
          let holding = false;
          const since = two.storage.changes.since.bind(two.storage.changes);
          two.storage.changes.since = async (seq, limit) => {
            holding = true;
            await held;
            return since(seq, limit);
          };
          let appliedHere = false;
          const ownSince = one.storage.changes.since.bind(one.storage.changes);
          one.storage.changes.since = async (seq, limit) => {
            const rows: HostChange[] = await ownSince(seq, limit);
            if (rows.some((row) => row.keyId === key.id)) appliedHere = true;
            return rows;
          };
          try {
            let answered = false;
            const revoking = one
              .request({ method: 'DELETE', url: `/manage/v1/projects/acme/keys/${key.id}`, key: owner.token })
              .then((response) => {
                answered = true;
                return response;
              });
            await eventually(async () => holding && appliedHere);
            let used = false;
            const meanwhile = pets(two, secret).then((status) => {
              used = true;
              return status;
            });
            await turns(50);
            assert.equal(answered, false, 'not answered while the other instance has not applied it');
            assert.equal(
              used,
              false,
              'a request on the other instance waits for the notification it received',
            );
            release();
            assert.equal((await revoking).status, 200);
            assert.equal(await meanwhile, 401);
          } finally {
            release();
            two.storage.changes.since = since;
            one.storage.changes.since = ownSince;
          }
        },
      );

    if (backend === 'postgres')
      it(
        'PostgreSQL: an instance that stopped without a word → a revocation is answered within the bound, logged naming it, and the next one does not wait for it',
        { skip },
        async () => {
          const url = postgres && 'url' in postgres ? postgres.url : '';
          const schema = (await one.storage.sql.all('SELECT current_schema() AS s'))[0]!.s as string;
          const ghost = new pg.Client({ connectionString: url });
          await ghost.connect();
          const id = randomBytes(8).toString('hex');
          try {
            await ghost.query('SELECT pg_notify($1, $2)', [HOST_CHANGES_CHANNEL, `${schema} hello ${id}`]);
            const revokeOne = async () => {
              const created = await one.request({
                method: 'POST',
                url: '/manage/v1/projects/acme/keys',
                key: owner.token,
                body: {},
              });
              const { key } = JSON.parse(created.body) as { key: { id: string } };
              const from = lines.length;
              const revoked = await one.request({
                method: 'DELETE',
                url: `/manage/v1/projects/acme/keys/${key.id}`,
                key: owner.token,
              });
              assert.equal(revoked.status, 200);
              return lines.slice(from).filter((line) => line.includes('changes.echo_timeout'));
            };
            const first = await revokeOne();
            assert.equal(first.length, 1, 'the silent instance was waited for, within the bound');
            assert.match(first[0]!, new RegExp(id));
            assert.deepEqual(await revokeOne(), [], 'and is not waited for again');
          } finally {
            await ghost.end();
          }
        },
      );
  });
}
