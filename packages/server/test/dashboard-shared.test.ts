import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addAccount, Browser, createKeyIn, csrfOf, secretOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { linkIn, type MailSink, startMailSink } from './mail-sink.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const PASSWORD = 'correct horse battery staple';

/** A browser whose requests go to whichever instance the test names; the cookies are the browser's own. */
class TwoInstances {
  readonly a: Browser;
  readonly b: Browser;
  constructor(a: TestApp, b: TestApp) {
    this.a = new Browser(a);
    this.b = new Browser(b, this.a.cookies);
  }
}

/**
 * Sign-in protection, flashes and invitations on two instances sharing one database: the device
 * cookies' key, the failure counts, the one-time flashes and the invitations are in the database, so
 * what one instance issued or counted holds on the other (SQLite and PostgreSQL).
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`dashboard on two instances sharing ${backend}`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let a: TestApp;
    let b: TestApp;
    let mailbox: MailSink;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-dashboard-',
      );
      const { open } = shared;
      cleanup = shared.cleanup;
      mailbox = await startMailSink();
      a = await makeTestApp({ storage: await open(), trustProxy: true, mailer: mailbox.mailer() });
      b = await makeTestApp({ storage: await open(), trustProxy: true, clock: a.clock });
      await addAccount(a, 'owner@example.com', PASSWORD, ['acme']);
    });
    after(async () => {
      if (skip) return;
      await a.close();
      await b.close();
      await mailbox.close();
      await cleanup();
    });

    it(
      'a device that signed in on A signs in on B with 50 failures from other addresses behind it',
      { skip },
      async () => {
        const owner = new TwoInstances(a, b);
        await owner.a.signIn('owner@example.com', PASSWORD);
        owner.a.cookies.delete('petstore_session');
        const statuses = new Set<number>();
        for (let i = 0; i < 50; i++) {
          const stranger = new Browser(i % 2 === 0 ? a : b);
          const from = { 'x-forwarded-for': `203.0.113.${i}` };
          const form = await stranger.get('/dashboard/sign-in', from);
          const response = await stranger.post(
            '/dashboard/sign-in',
            { _csrf: csrfOf(form), email: 'owner@example.com', password: `guess number ${i}` },
            from,
          );
          statuses.add(response.status);
        }
        assert.deepEqual([...statuses].sort(), [400, 429], 'failures on both instances count together');
        const form = await owner.b.get('/dashboard/sign-in');
        const back = await owner.b.post('/dashboard/sign-in', {
          _csrf: csrfOf(form),
          email: 'owner@example.com',
          password: PASSWORD,
        });
        assert.equal(back.status, 303, back.body);
      },
    );

    it(
      'a key created on A is shown once on B after the redirect, and never again on either',
      { skip },
      async () => {
        const owner = new TwoInstances(a, b);
        await owner.a.signIn('owner@example.com', PASSWORD);
        const url = '/dashboard/projects/acme/keys';
        const created = await owner.a.post(url, { _csrf: csrfOf(await owner.a.get(url)), label: 'shared' });
        assert.equal(created.status, 303);
        const secret = secretOf(await owner.b.get(url));
        assert.doesNotMatch((await owner.a.get(url)).body, new RegExp(secret));
        assert.doesNotMatch((await owner.b.get(url)).body, new RegExp(secret));
        assert.equal((await b.request({ url: '/v1/pets', key: secret })).status, 200);
        assert.ok(await createKeyIn(owner.b, 'acme', 'and on B'));
      },
    );

    it('an invitation made on A is accepted on B; the viewer is refused a key on A', { skip }, async () => {
      const owner = new Browser(a);
      await owner.signIn('owner@example.com', PASSWORD);
      const members = await owner.get('/dashboard/projects/acme/members');
      await owner.post('/dashboard/projects/acme/members/invite', {
        _csrf: csrfOf(members),
        email: 'viewer@example.com',
        role: 'viewer',
      });
      const link = linkIn(await mailbox.next((mail) => mail.to[0] === 'viewer@example.com'));
      const invitee = new TwoInstances(a, b);
      const form = await invitee.b.get(`${link.pathname}${link.search}`);
      const joined = await invitee.b.post('/dashboard/invitation', {
        _csrf: csrfOf(form),
        token: link.searchParams.get('token')!,
        password: 'quiet meadow lantern 42',
        repeat: 'quiet meadow lantern 42',
      });
      assert.equal(joined.status, 303, joined.body);
      const keys = await invitee.a.get('/dashboard/projects/acme/keys');
      assert.equal(keys.status, 200);
      assert.equal(
        (await invitee.a.post('/dashboard/projects/acme/keys', { _csrf: csrfOf(keys), label: 'x' })).status,
        403,
      );
    });
  });
}
