import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INVITATION_TTL_MS } from './invitation-mail.ts';
import { addAccount, assertPageHeaders, Browser, csrfOf } from '../../../test/dashboard-support.ts';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { linkIn, type MailSink, startMailSink } from '../../../test/mail-sink.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'quiet meadow lantern 42';

const message = (body: string, role: 'alert' | 'status') =>
  new RegExp(`role="${role}"[^>]*>([^<]*)<`).exec(body)?.[1]?.trim();

describe('dashboard invitations and roles: invite by mail, accept, change a role', () => {
  let app: TestApp;
  let owner: Browser;
  let mailbox: MailSink;
  const lines: string[] = [];
  before(async () => {
    mailbox = await startMailSink();
    app = await makeTestApp({ logLines: lines, mailer: mailbox.mailer() });
    await addAccount(app, 'owner@example.com', PASSWORD, ['acme']);
    owner = new Browser(app);
    await owner.signIn('owner@example.com', PASSWORD);
  });
  after(async () => {
    await app.close();
    await mailbox.close();
  });

  /** Invites through the Members tab: the owner reads "sent to …"; the link is in the invitee's mailbox only. */
  const inviteLink = async (email: string, role: string) => {
    const page = await owner.get('/dashboard/projects/acme/members');
    const posted = await owner.post('/dashboard/projects/acme/members/invite', {
      _csrf: csrfOf(page),
      email,
      role,
    });
    assert.equal(posted.status, 303);
    assert.equal(posted.headers.location, '/dashboard/projects/acme/members');
    const shown = await owner.get(posted.headers.location!);
    const to = email.normalize('NFKC').toLowerCase();
    assert.match(message(shown.body, 'status') ?? '', new RegExp(`^Invitation sent to ${to} \\(${role}\\)`));
    const mail = await mailbox.next((received) => received.to[0] === to);
    const link = linkIn(mail);
    const token = link.searchParams.get('token')!;
    for (const body of [posted.body, shown.body])
      assert.ok(!body.includes(token), 'the inviter never sees the link');
    const href = /<a href="([^"]+)"/.exec(mail.html)?.[1];
    assert.equal(href && new URL(href).href, link.href, 'the same link in the HTML part');
    return link;
  };

  it('an owner invites a viewer; the link opens a page to choose a password; a weak one is refused with the reason; then the viewer joins and can only read', async () => {
    const link = await inviteLink('Viewer@Example.com', 'viewer');
    assert.equal(link.origin, 'http://localhost');
    assert.equal(link.pathname, '/dashboard/invitation');
    const invitee = new Browser(app);
    const form = await invitee.get(`${link.pathname}${link.search}`);
    assert.equal(form.status, 200);
    assertPageHeaders(form);
    assert.match(
      form.body,
      /You are invited as <strong>viewer<\/strong> of Project acme,\s+with\s+<strong>viewer@example.com<\/strong>/,
    );
    const token = link.searchParams.get('token')!;
    for (const [password, reason] of [
      ['password1234', /too easy to guess/],
      [' '.repeat(14), /all whitespace/],
    ] as const) {
      const weak = await invitee.post('/dashboard/invitation', {
        _csrf: csrfOf(form),
        token,
        password,
        repeat: password,
      });
      assert.equal(weak.status, 400);
      assert.match(message(weak.body, 'alert') ?? '', reason);
    }
    const joined = await invitee.post('/dashboard/invitation', {
      _csrf: csrfOf(form),
      token,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(joined.status, 303, joined.body);
    assert.equal(joined.headers.location, '/dashboard/projects/acme');
    assert.ok(invitee.cookies.has('petstore_session') && invitee.cookies.has('petstore_device'));
    const keys = await invitee.get('/dashboard/projects/acme/keys');
    assert.equal(keys.status, 200);
    const create = await invitee.post('/dashboard/projects/acme/keys', {
      _csrf: csrfOf(keys),
      label: 'nope',
    });
    assert.equal(create.status, 403);
    const domain = await invitee.post('/dashboard/projects/acme/domains', {
      _csrf: csrfOf(keys),
      hostname: 'x.example.test',
    });
    assert.equal(domain.status, 403);
    const again = await new Browser(app).get(`${link.pathname}${link.search}`);
    assert.equal(again.status, 404, 'single use');
    assert.match(again.body, /This invitation cannot be used/);
    assert.ok(lines.some((line) => line.includes('"event":"invitation.accepted"')));
    assert.ok(
      lines.every((line) => !line.includes(token)),
      'the token is never logged',
    );
  });

  it('an invitation for an existing account: the same page as for a new one; creating is refused, signing in joins with the role', async () => {
    await addAccount(app, 'dev@example.com', PASSWORD, []);
    const link = await inviteLink('dev@example.com', 'developer');
    const fresh = await inviteLink('nobody-yet@example.com', 'developer');
    const invitee = new Browser(app);
    const form = await invitee.get(`${link.pathname}${link.search}`);
    const strip = (body: string) =>
      body
        .replace(/value="[^"]*"/g, '')
        .replace(/[a-z-]+@example\.com/g, 'ADDRESS')
        .replace(/\d{4}-\d\d-\d\d/g, 'DAY');
    const other = await new Browser(app).get(`${fresh.pathname}${fresh.search}`);
    assert.equal(
      strip(form.body),
      strip(other.body),
      'the page does not tell whether the address has an account',
    );
    const token = link.searchParams.get('token')!;
    const create = await invitee.post('/dashboard/invitation', {
      _csrf: csrfOf(form),
      token,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(create.status, 400);
    assert.match(message(create.body, 'alert') ?? '', /dev@example.com has an account already: sign in/);
    const wrong = await invitee.post('/dashboard/invitation', {
      _csrf: csrfOf(form),
      token,
      password: 'not it at all',
    });
    assert.equal(wrong.status, 400);
    const joined = await invitee.post('/dashboard/invitation', {
      _csrf: csrfOf(form),
      token,
      password: PASSWORD,
    });
    assert.equal(joined.status, 303);
    const keys = await invitee.get('/dashboard/projects/acme/keys');
    const created = await invitee.post('/dashboard/projects/acme/keys', {
      _csrf: csrfOf(keys),
      label: 'dev key',
    });
    assert.equal(created.status, 303, 'a developer creates keys');
    const members = await invitee.get('/dashboard/projects/acme/members');
    const invite = await invitee.post('/dashboard/projects/acme/members/invite', {
      _csrf: csrfOf(members),
      email: 'x@example.com',
      role: 'owner',
    });
    assert.equal(invite.status, 403, 'only owners invite');
  });

  it('an invitation link expires after 7 days, and a revoked one stops working at once; no CSRF token → 403', async () => {
    const expiring = await inviteLink('late@example.com', 'viewer');
    const revoked = await inviteLink('revoked@example.com', 'viewer');
    const members = await owner.get('/dashboard/projects/acme/members');
    assert.match(members.body, /late@example.com/);
    const pending = await app.storage.projects.pendingInvitations('prj_acme', app.clock.now());
    const invitationId = pending.find((invitation) => invitation.email === 'revoked@example.com')?.id;
    assert.match(members.body, new RegExp(`/invitations/${invitationId}/revoke`));
    assert.ok(invitationId);
    const out = await owner.post(`/dashboard/projects/acme/invitations/${invitationId}/revoke`, {
      _csrf: csrfOf(members),
    });
    assert.equal(out.status, 303);
    assert.equal((await new Browser(app).get(`${revoked.pathname}${revoked.search}`)).status, 404);
    const invitee = new Browser(app);
    const form = await invitee.get(`${expiring.pathname}${expiring.search}`);
    assert.equal(form.status, 200);
    const token = expiring.searchParams.get('token')!;
    const forged = await invitee.post('/dashboard/invitation', {
      token,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(forged.status, 403);
    app.clock.advance(INVITATION_TTL_MS);
    assert.equal((await new Browser(app).get(`${expiring.pathname}${expiring.search}`)).status, 404);
    const late = await invitee.post('/dashboard/invitation', {
      _csrf: csrfOf(form),
      token,
      password: NEW_PASSWORD,
      repeat: NEW_PASSWORD,
    });
    assert.equal(late.status, 404);
    assert.equal(await app.storage.accounts.byEmail('late@example.com'), undefined);
  });

  it('an owner changes a role; the last owner cannot stop being one; a member already in cannot be invited', async () => {
    owner = new Browser(app);
    await owner.signIn('owner@example.com', PASSWORD);
    await addAccount(app, 'second@example.com', PASSWORD, []);
    const second = (await app.storage.accounts.byEmail('second@example.com'))!;
    await app.storage.projects.addMember(second.id, 'prj_acme', app.clock.now(), 'viewer');
    const page = await owner.get('/dashboard/projects/acme/members');
    const changed = await owner.post(`/dashboard/projects/acme/members/${second.id}/role`, {
      _csrf: csrfOf(page),
      role: 'developer',
    });
    assert.equal(changed.status, 303);
    assert.equal(
      message((await owner.get('/dashboard/projects/acme/members')).body, 'status'),
      'second@example.com is now a developer.',
    );
    assert.equal(await app.storage.projects.roleOf(second.id, 'prj_acme'), 'developer');
    const me = (await app.storage.accounts.byEmail('owner@example.com'))!;
    await owner.post(`/dashboard/projects/acme/members/${me.id}/role`, {
      _csrf: csrfOf(page),
      role: 'viewer',
    });
    const refused = await owner.get('/dashboard/projects/acme/members');
    assert.match(message(refused.body, 'alert') ?? '', /owner@example.com is the last owner of Project acme/);
    assert.equal(await app.storage.projects.roleOf(me.id, 'prj_acme'), 'owner');
    await owner.post('/dashboard/projects/acme/members/invite', {
      _csrf: csrfOf(page),
      email: 'second@example.com',
      role: 'owner',
    });
    assert.match(
      message((await owner.get('/dashboard/projects/acme/members')).body, 'alert') ?? '',
      /is a member already/,
    );
  });

  it('an address that mixes scripts or imitates Latin letters → refused with the reason, nothing mailed; a full-width spelling of a member is that member', async () => {
    owner = new Browser(app);
    await owner.signIn('owner@example.com', PASSWORD);
    const before = mailbox.received.length;
    for (const [email, reason] of [
      ['owner@exаmple.com', /mixes Latin and Cyrillic letters in “exаmple”/],
      ['dev-а@example.com', /mixes Latin and Cyrillic letters in “dev-а”/],
      ['аре@example.com', /imitate Latin ones \(“аре” reads as “ape”\)/],
      ['ｏｗｎｅｒ＠ｅｘａｍｐｌｅ．ｃｏｍ', /owner@example.com is a member already/],
      ['OWNER@Example.COM', /owner@example.com is a member already/],
    ] as const) {
      const page = await owner.get('/dashboard/projects/acme/members');
      const posted = await owner.post('/dashboard/projects/acme/members/invite', {
        _csrf: csrfOf(page),
        email,
        role: 'owner',
      });
      assert.equal(posted.status, 303);
      const shown = await owner.get('/dashboard/projects/acme/members');
      assert.match(message(shown.body, 'alert') ?? '', reason, email);
    }
    const pending = await app.storage.projects.pendingInvitations('prj_acme', app.clock.now());
    assert.ok(pending.every((invitation) => /^[\x20-\x7e]+$/.test(invitation.email)));
    await app.app.outbox.idle();
    assert.equal(mailbox.received.length, before, 'nothing mailed');
  });

  it('the takeover chain: an owner who invites an address never holds its link, and the log never shows it', async () => {
    // The owner of "acme" invites an address that is not theirs. What they can see: the answer, the
    // Members tab, the Activity tab. The link is only in the mailbox of the address.
    const link = await inviteLink('someone@victim.test', 'owner');
    const token = link.searchParams.get('token')!;
    for (const path of ['/dashboard/projects/acme/members', '/dashboard/projects/acme/activity']) {
      assert.ok(!(await owner.get(path)).body.includes(token), path);
    }
    assert.ok(
      lines.every((line) => !line.includes(token)),
      'not in the log',
    );
    const pending = await app.storage.projects.pendingInvitations('prj_acme', app.clock.now());
    assert.ok(
      pending.every((invitation) => !JSON.stringify(invitation).includes(token)),
      'only its digest is stored',
    );
  });

  it('a project sends at most 10 invitations a minute: the 11th is refused with when to try again, nothing mailed', async () => {
    app.clock.advance(60_000);
    for (let n = 1; n <= 10; n++) await inviteLink(`bulk-${n}@example.com`, 'viewer');
    const page = await owner.get('/dashboard/projects/acme/members');
    await owner.post('/dashboard/projects/acme/members/invite', {
      _csrf: csrfOf(page),
      email: 'bulk-11@example.com',
      role: 'viewer',
    });
    const shown = await owner.get('/dashboard/projects/acme/members');
    assert.match(
      message(shown.body, 'alert') ?? '',
      /Project acme has sent many invitations: try again in \d+ seconds/,
    );
    await app.app.outbox.idle();
    assert.ok(mailbox.received.every((mail) => mail.to[0] !== 'bulk-11@example.com'));
  });
});
