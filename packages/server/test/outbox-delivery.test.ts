import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { invitationMail } from '../src/mail/messages.ts';
import { OUTBOX_LEASE_TTL_MS } from '../src/mail/outbox.ts';
import { mailSettings } from '../src/mail/settings.ts';
import { createSmtpMailer } from '../src/mail/smtp-mailer.ts';
import { FakeClock } from '../src/time/clock.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { linkIn, type MailSink, SINK_CA, startMailSink } from './mail-sink.ts';
import { tokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import { openStoreAt } from '../src/features/store.ts';

const PASSWORD = 'correct horse battery staple';
const T0 = Date.UTC(2026, 10, 22, 12);

const message = (body: string, role: 'alert' | 'status') =>
  new RegExp(`role="${role}"[^>]*>([^<]*)<`).exec(body)?.[1]?.trim();

/** A loopback port nobody listens on now: a mail server that is down. */
async function portOfAStoppedServer(): Promise<number> {
  const sink = await startMailSink();
  const port = Number(new URL(sink.url).port);
  await sink.close();
  return port;
}

/** The service's SMTP mailer for a loopback port, whether or not a server listens there yet. */
const mailerFor = (port: number) => {
  const settings = mailSettings(
    `smtp://127.0.0.1:${port}`,
    'Petstore <no-reply@example.test>',
    (m) => new Error(m),
  );
  return createSmtpMailer(settings.smtp!, settings.from, { ca: SINK_CA });
};

/** An owner of "acme" signed in to the dashboard, inviting through the Members tab. */
async function ownerOf(app: TestApp) {
  await addAccount(app, 'owner@example.com', PASSWORD, ['acme']);
  const owner = new Browser(app);
  await owner.signIn('owner@example.com', PASSWORD);
  return {
    owner,
    async invite(email: string) {
      const page = await owner.get('/dashboard/projects/acme/members');
      const posted = await owner.post('/dashboard/projects/acme/members/invite', {
        _csrf: csrfOf(page),
        email,
        role: 'developer',
      });
      assert.equal(posted.status, 303);
      return owner.get('/dashboard/projects/acme/members');
    },
  };
}

const outboxRows = (app: TestApp) =>
  app.storage.sql.all(
    'SELECT id, topic, subject_ref, state, attempts, payload FROM outbox ORDER BY created_at, id',
  );

describe('the durable outbox: mail survives a stop, is sent once, and is shown when given up', () => {
  it('an invitation made while the mail server is down, the app gone, the server back: a new app over the same database delivers it, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-outbox-restart-'));
    const database = join(dir, 'petstore.db');
    const port = await portOfAStoppedServer();
    let sink: MailSink | undefined;
    let second: TestApp | undefined;
    try {
      const first = await makeTestApp({
        storage: await openStoreAt(database),
        clock: new FakeClock(T0),
        mailer: mailerFor(port),
      });
      const shown = await (await ownerOf(first)).invite('late@example.com');
      assert.match(message(shown.body, 'status') ?? '', /^Invitation sent to late@example.com/);
      await first.app.outbox.idle();
      const [waiting] = await outboxRows(first);
      assert.deepEqual(
        [waiting!.topic, waiting!.state, Number(waiting!.attempts)],
        ['invitation', 'queued', 1],
      );
      assert.match(shown.body, /mail waiting to be delivered/);
      first.clock.advance(5_000);
      first.app.outbox.wake();
      await first.app.outbox.idle();
      const metrics = (await first.request({ url: '/metrics', key: null })).body;
      assert.match(metrics, /^petstore_mail_outbox_queued 1$/m);
      assert.match(metrics, /^petstore_mail_outbox_oldest_queued_age_seconds 5$/m);
      // Nothing of the mail lives in the process: whatever way it stops, the row is what remains.
      await first.close();

      sink = await startMailSink({ port });
      second = await makeTestApp({
        storage: await openStoreAt(database),
        clock: new FakeClock(T0 + 10_000 + 5_000),
        mailer: mailerFor(port),
      });
      await second.app.outbox.idle();
      const mail = await sink.next((received) => received.to[0] === 'late@example.com');
      assert.equal(mail.headers.get('message-id'), `<${waiting!.id}@example.test>`);
      second.clock.advance(60 * 60_000);
      await second.app.outbox.idle();
      assert.equal(
        sink.received.filter((received) => received.to[0] === 'late@example.com').length,
        1,
        'once',
      );
      const [sent] = await outboxRows(second);
      assert.deepEqual([sent!.state, Number(sent!.attempts)], ['sent', 2]);
      const link = linkIn(mail);
      assert.ok(
        !String(sent!.payload).includes(link.searchParams.get('token')!),
        'the link left the database',
      );
      const opened = await new Browser(second).get(`${link.pathname}${link.search}`);
      assert.equal(opened.status, 200, 'the link works');
    } finally {
      await second?.close();
      await sink?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a mail refused for good: the Members tab says "not delivered" with a Resend (owners only, recorded) that mails a new link; /manage shows the delivery', async () => {
    const sink = await startMailSink();
    const app = await makeTestApp({ mailer: sink.mailer() });
    try {
      const { owner, invite } = await ownerOf(app);
      sink.refuse(1, 550);
      await invite('bounced@example.com');
      await app.app.outbox.idle();
      const page = await owner.get('/dashboard/projects/acme/members');
      assert.match(page.body, /bounced@example\.com[\s\S]*not delivered/);
      const action = /action="([^"]+\/resend)"/.exec(page.body)?.[1];
      assert.ok(action, 'a Resend button');

      const holder = await tokenHolder(app, ['acme']);
      const listed = await app.request({ url: '/manage/v1/projects/acme/invitations', key: holder.token });
      assert.equal(listed.status, 200);
      const [listedInvitation] = (JSON.parse(listed.body) as { data: { email: string; delivery: unknown }[] })
        .data;
      assert.deepEqual(listedInvitation!.delivery, { state: 'failed', attempts: 1 });

      const outsider = new Browser(app);
      await addAccount(app, 'dev@example.com', PASSWORD, []);
      await app.storage.projects.addMember('acc_dev_example_com', 'prj_acme', app.clock.now(), 'developer');
      await outsider.signIn('dev@example.com', PASSWORD);
      const theirs = await outsider.get('/dashboard/projects/acme/members');
      assert.doesNotMatch(theirs.body, /not delivered|\/resend"/, 'only owners see it');
      const refused = await outsider.post(action, { _csrf: csrfOf(theirs) });
      assert.ok([403, 404].includes(refused.status), `a developer cannot resend (${refused.status})`);

      const resent = await owner.post(action, { _csrf: csrfOf(page) });
      assert.equal(resent.status, 303);
      const after = await owner.get(resent.headers.location!);
      assert.match(
        message(after.body, 'status') ?? '',
        /^Invitation sent again to bounced@example.com, with a new link/,
      );
      await app.app.outbox.idle();
      const mail = await sink.next((received) => received.to[0] === 'bounced@example.com');
      const link = linkIn(mail);
      assert.equal((await new Browser(app).get(`${link.pathname}${link.search}`)).status, 200);
      assert.doesNotMatch((await owner.get('/dashboard/projects/acme/members')).body, /not delivered/);
      const trail = await app.storage.audit.list({ projectId: 'prj_acme', limit: 100 });
      assert.ok(
        trail.some(
          (event) =>
            event.action === 'invitation_resent' && event.target === 'bounced@example.com as developer',
        ),
      );

      const again = await owner.post(action, { _csrf: csrfOf(page) });
      const shown = await owner.get(again.headers.location!);
      assert.match(
        message(shown.body, 'alert') ?? '',
        /was delivered: only a mail not delivered is sent again/,
      );
    } finally {
      await app.close();
      await sink.close();
    }
  });

  it('POST /manage/…/invitations/{id}/resend: a mail given up is sent again with a new link (owners only); delivered or queued → 409; unknown → 404', async () => {
    const sink = await startMailSink();
    const app = await makeTestApp({ mailer: sink.mailer() });
    try {
      const owner = await tokenHolder(app, ['acme']);
      const developer = await tokenHolder(app, ['acme'], { role: 'developer' });
      const resend = (id: string, token = owner.token) =>
        app.request({ method: 'POST', url: `/manage/v1/projects/acme/invitations/${id}/resend`, key: token });
      sink.refuse(1, 550);
      const made = await app.request({
        method: 'POST',
        url: '/manage/v1/projects/acme/invitations',
        key: owner.token,
        body: { email: 'api-bounce@example.com', role: 'viewer' },
      });
      const { id } = JSON.parse(made.body) as { id: string };
      assert.equal((await resend(id)).status, 409, 'queued: not given up yet');
      await app.app.outbox.idle();
      assert.equal((await resend(id, developer.token)).status, 403);
      const resent = await resend(id);
      assert.equal(resent.status, 200);
      const body = JSON.parse(resent.body) as { delivery: unknown; invitedBy: { email: string } };
      assert.deepEqual(body.delivery, { state: 'queued', attempts: 0 });
      assert.equal(body.invitedBy.email, owner.email);
      await app.app.outbox.idle();
      const link = linkIn(await sink.next((received) => received.to[0] === 'api-bounce@example.com'));
      assert.equal((await new Browser(app).get(`${link.pathname}${link.search}`)).status, 200);
      assert.equal((await resend(id)).status, 409, 'delivered');
      assert.equal((await resend('inv_0000000000000000')).status, 404);
    } finally {
      await app.close();
      await sink.close();
    }
  });

  it('a full outbox: a new invitation is refused with 503 and Retry-After, nothing stored or recorded; the bound holds until a mail leaves', async () => {
    const port = await portOfAStoppedServer();
    const app = await makeTestApp({ mailer: mailerFor(port), mailOutboxCap: 1 });
    try {
      const holder = await tokenHolder(app, ['acme']);
      const invite = (email: string) =>
        app.request({
          method: 'POST',
          url: '/manage/v1/projects/acme/invitations',
          key: holder.token,
          body: { email, role: 'viewer' },
        });
      const first = await invite('one@example.com');
      assert.equal(first.status, 201);
      assert.deepEqual((JSON.parse(first.body) as { delivery: unknown }).delivery, {
        state: 'queued',
        attempts: 0,
      });
      const before = (await app.storage.audit.list({ projectId: 'prj_acme', limit: 100 })).length;
      const refused = await invite('two@example.com');
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['retry-after'], '300');
      assert.match(JSON.parse(refused.body).message, /too many mails are waiting for the mail server/);
      const pending = await app.storage.projects.pendingInvitations('prj_acme', app.clock.now());
      assert.deepEqual(
        pending.map((invitation) => invitation.email),
        ['one@example.com'],
      );
      assert.equal((await app.storage.audit.list({ projectId: 'prj_acme', limit: 100 })).length, before);
      await app.request({
        method: 'DELETE',
        url: `/manage/v1/projects/acme/invitations/${pending[0]!.id}`,
        key: holder.token,
      });
      assert.equal((await invite('two@example.com')).status, 201, 'room again once the waiting mail left');
    } finally {
      await app.close();
    }
  });

  it('revoking an invitation whose mail waits takes the mail with it: nothing is sent once the server is back', async () => {
    const port = await portOfAStoppedServer();
    const app = await makeTestApp({ mailer: mailerFor(port) });
    let sink: MailSink | undefined;
    try {
      const { owner, invite } = await ownerOf(app);
      const page = await invite('changed-mind@example.com');
      await app.app.outbox.idle();
      const revoke = /action="([^"]+\/revoke)"/.exec(page.body)![1]!;
      assert.equal((await owner.post(revoke, { _csrf: csrfOf(page) })).status, 303);
      assert.deepEqual(await outboxRows(app), []);
      sink = await startMailSink({ port });
      app.clock.advance(60 * 60_000);
      await app.app.outbox.idle();
      assert.equal(sink.received.length, 0);
    } finally {
      await app.close();
      await sink?.close();
    }
  });
});

describe('two instances on one PostgreSQL database', async () => {
  const postgres = await service('postgres');
  const skip = 'skip' in postgres ? postgres.skip : undefined;

  it(
    'mails queued by both, delivered while the lease changes hands: every row sent once, none twice',
    { skip },
    async () => {
      const shared = await sharedStorage(
        'url' in postgres ? postgres.url : undefined,
        'petstore-outbox-two-',
      );
      const sink = await startMailSink();
      const clock = new FakeClock(T0);
      const apps: TestApp[] = [];
      try {
        for (let n = 0; n < 2; n++)
          apps.push(await makeTestApp({ storage: await shared.open(), clock, mailer: sink.mailer() }));
        const ids: string[] = [];
        for (let wave = 0; wave < 3; wave++) {
          for (const [index, app] of apps.entries()) {
            for (let n = 0; n < 5; n++) {
              const to = `w${wave}-a${index}-${n}@example.com`;
              const mail = invitationMail({
                to,
                projectName: 'Acme',
                role: 'viewer',
                url: 'http://localhost/x',
                expiresAt: T0,
              });
              ids.push(await app.storage.transaction((sql) => app.app.outbox.queue(sql, mail)));
            }
          }
          for (const app of apps) app.app.outbox.wake();
          await Promise.all(apps.map((app) => app.app.outbox.idle()));
          // The holder's lease runs out: the next wave may be the other instance's.
          clock.advance(OUTBOX_LEASE_TTL_MS);
        }
        assert.equal(sink.received.length, ids.length);
        const messageIds = sink.received.map((mail) => String(mail.headers.get('message-id')));
        assert.equal(new Set(messageIds).size, ids.length, 'no mail twice');
        assert.deepEqual(messageIds.toSorted(), ids.map((id) => `<${id}@example.test>`).toSorted());
        const states = await apps[0]!.storage.sql.all('SELECT state, attempts FROM outbox');
        assert.ok(states.every((row) => row.state === 'sent' && Number(row.attempts) === 1));
      } finally {
        for (const app of apps) await app.close();
        await sink.close();
        await shared.cleanup();
      }
    },
  );
});
