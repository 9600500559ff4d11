import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../src/time/clock.ts';
import { verifiedDomain } from './dashboard-forms.ts';
import { eventually, TEST_CHANGE_POLL_MS } from './eventually.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import type { Store } from '../src/features/store.ts';

const pets = (app: TestApp, key: string) => app.request({ url: '/v1/pets', key }).then((r) => r.status);
const visit = (app: TestApp, host: string) =>
  app.request({ url: '/', key: null, headers: { host }, unchecked: true });

/**
 * Two instances of the service on one database (and a third connection, as the command line is): a
 * key's change drops that key alone on every instance, and a host's change is served by the other
 * instance from its next request. On SQLite the other instance sees a commit at its next request (the
 * database's data_version); on PostgreSQL through LISTEN/NOTIFY, or the feed read on its timer.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`changes across two instances (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
    let one: TestApp;
    let two: TestApp;
    let cli: Store;
    let cleanup: () => Promise<void> = async () => {};
    /** On SQLite the other instance's next request sees the change; on PostgreSQL soon after. */
    const seenBy = async (app: TestApp, check: () => Promise<boolean>) => {
      if (backend === 'sqlite') assert.ok(await check(), 'the very next request');
      else await eventually(check);
    };

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-changes-',
      );
      cleanup = shared.cleanup;
      one = await makeTestApp({ storage: await shared.open(), clock, changePollMs: TEST_CHANGE_POLL_MS });
      two = await makeTestApp({ storage: await shared.open(), clock, changePollMs: TEST_CHANGE_POLL_MS });
      cli = await shared.open();
    });
    after(async () => {
      if (skip) return;
      await one.close();
      await two.close();
      await cli.close();
      await cleanup();
    });

    it(
      'a key revoked through one instance → 401 there at once and on the other; other keys stay served',
      { skip },
      async () => {
        const owner = await tokenHolder(one, ['acme']);
        const created = await one.request({
          method: 'POST',
          url: '/manage/v1/projects/acme/keys',
          key: owner.token,
          body: {},
        });
        const { key, secret } = JSON.parse(created.body) as { key: { id: string }; secret: string };
        const { secret: kept } = await one.createKey('pro');
        for (const app of [one, two]) {
          assert.equal(await pets(app, secret), 200, 'cached on both');
          assert.equal(await pets(app, kept), 200);
        }
        const url = `/manage/v1/projects/acme/keys/${key.id}`;
        assert.equal((await one.request({ method: 'DELETE', url, key: owner.token })).status, 200);
        assert.equal(await pets(one, secret), 401, 'the writing instance: at once');
        await seenBy(two, async () => (await pets(two, secret)) === 401);
        for (const app of [one, two]) assert.equal(await pets(app, kept), 200, 'the other key still works');
      },
    );

    it(
      'a key revoked, and another banned, by another process (the command line) → refused by both instances',
      { skip },
      async () => {
        const revoked = await one.createKey('pro');
        const banned = await one.createKey('pro');
        for (const app of [one, two]) {
          assert.equal(await pets(app, revoked.secret), 200);
          assert.equal(await pets(app, banned.secret), 200);
        }
        await cli.keys.revoke(revoked.id, clock.now());
        await cli.keys.ban(banned.id, clock.now() + 3_600_000);
        for (const app of [one, two]) {
          await seenBy(app, async () => (await pets(app, revoked.secret)) === 401);
          await seenBy(app, async () => (await pets(app, banned.secret)) === 429);
        }
      },
    );

    it(
      'writes elsewhere that change no key (a pet, a domain, another key revoked) → the other keys stay cached',
      { skip },
      async () => {
        const kept = await one.createKey('pro');
        const gone = await one.createKey('pro');
        const lookups: string[] = [];
        const find = two.storage.keys.findByDigest.bind(two.storage.keys);
        two.storage.keys.findByDigest = async (digest) => {
          lookups.push(digest);
          return find(digest);
        };
        try {
          for (const key of [kept, gone]) assert.equal(await pets(two, key.secret), 200);
          assert.equal(lookups.length, 2);
          const created = await one.request({
            method: 'POST',
            url: '/v1/pets',
            body: { name: 'Rex', categoryId: 1 },
          });
          assert.equal(created.status, 201);
          await cli.domains.add(verifiedDomain('elsewhere.example.test', 'prj_acme', clock.now()));
          await cli.keys.revoke(gone.id, clock.now());
          await seenBy(two, async () => (await pets(two, gone.secret)) === 401);
          assert.equal(await pets(two, kept.secret), 200);
          assert.equal(lookups.length, 3, 'looked up again: the revoked key alone');
        } finally {
          two.storage.keys.findByDigest = find;
        }
      },
    );

    it(
      'a domain added, then another made primary, on one instance → served so by the other from its next request',
      { skip },
      async () => {
        await one.signedInMember('docs', { plan: 'pro' });
        assert.equal((await visit(two, 'docs.docs.test')).status, 302, 'never claimed: the API, cached so');
        await one.storage.domains.add(verifiedDomain('docs.docs.test', 'prj_docs', clock.now()));
        assert.equal((await visit(two, 'docs.docs.test')).status, 200, 'added: the next request');
        await one.storage.domains.add(
          verifiedDomain('www.docs.test', 'prj_docs', clock.now(), { primary: false }),
        );
        assert.equal((await visit(two, 'www.docs.test')).status, 301, 'not primary: to the primary');
        assert.equal(await one.storage.domains.setPrimary('prj_docs', 'www.docs.test'), true);
        const moved = await visit(two, 'docs.docs.test');
        assert.equal(moved.status, 301, 'made primary: the next request');
        assert.match(moved.headers.location ?? '', /^https?:\/\/www\.docs\.test\//);
        assert.equal((await visit(two, 'www.docs.test')).status, 200);
      },
    );

    it(
      'a domain removed by another process → no instance serves it after the removal returned',
      { skip },
      async () => {
        await one.signedInMember('gone', { plan: 'pro' });
        await cli.domains.add(verifiedDomain('docs.gone.test', 'prj_gone', clock.now()));
        for (const app of [one, two]) assert.equal((await visit(app, 'docs.gone.test')).status, 200);
        assert.equal(await cli.domains.remove('prj_gone', 'docs.gone.test', clock.now()), true);
        for (const app of [one, two]) assert.equal((await visit(app, 'docs.gone.test')).status, 404);
      },
    );
  });
}
