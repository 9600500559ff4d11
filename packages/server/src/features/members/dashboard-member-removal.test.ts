import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { invite } from './invitation-mail.ts';
import type { Role } from './member-records.ts';
import { addAccount, Browser, csrfOf } from '../../../test/dashboard-support.ts';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';

const PASSWORD = 'correct horse battery staple';
const ANN = 'acc_ann_example_com';
const BOB = 'acc_bob_example_com';

const status = (body: string) => /role="status"[^>]*>([^<]*)</.exec(body)?.[1]?.trim();

describe('dashboard members: removal revokes what the member invited; owners see and revoke invitations', () => {
  let app: TestApp;
  let ann: Browser;
  beforeEach(async () => {
    app = await makeTestApp();
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme']);
    await addAccount(app, 'bob@example.com', PASSWORD, ['acme']);
    ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
  });
  afterEach(() => app.close());

  /** An invitation made by `invitedBy`, as the Members tab makes it; its token. */
  const invitation = async (email: string, role: Role, invitedBy: string | null) => {
    const project = (await app.storage.projects.bySlug('acme'))!;
    return (await invite(app.storage.projects, { project, email, role, invitedBy, now: app.clock.now() }))
      .token;
  };
  const invitationPage = (token: string, browser = new Browser(app)) =>
    browser.get(`/dashboard/invitation?token=${token}`);
  const trail = async () =>
    (await app.storage.audit.list({ projectId: 'prj_acme', limit: 20 })).map((e) => [e.action, e.target]);

  it('an owner removed → the owner invitation they made is revoked with them, listed first and in the trail', async () => {
    const planted = await invitation('bob-again@example.test', 'owner', BOB);
    const kept = await invitation('kept@example.com', 'viewer', ANN);
    assert.equal((await invitationPage(planted)).status, 200);
    const confirm = await ann.get(`/dashboard/projects/acme/members/${BOB}/remove`);
    assert.match(confirm.body, /revoked with them:[\s\S]*bob-again@example\.test<\/span> · Owner/);
    const removed = await ann.post(`/dashboard/projects/acme/members/${BOB}/remove`, {
      _csrf: csrfOf(confirm),
    });
    assert.equal(removed.status, 303);
    assert.equal(
      status((await ann.get('/dashboard/projects/acme/members')).body),
      'bob@example.com was removed; their sessions have ended. The invitation they made was revoked.',
    );
    assert.equal((await invitationPage(planted)).status, 404, 'the link no longer works');
    assert.equal((await invitationPage(kept)).status, 200, 'other owners’ invitations stay');
    assert.deepEqual((await trail()).slice(0, 2), [
      ['invitation_revoked', 'bob-again@example.test as owner (made by bob@example.com, no longer an owner)'],
      ['member_removed', 'bob@example.com (owner)'],
    ]);
  });

  it('an owner made a viewer → their invitations are revoked; one planted meanwhile cannot be accepted', async () => {
    await invitation('early@example.test', 'owner', BOB);
    const page = await ann.get('/dashboard/projects/acme/members');
    await ann.post(`/dashboard/projects/acme/members/${BOB}/role`, { _csrf: csrfOf(page), role: 'viewer' });
    assert.equal(
      status((await ann.get('/dashboard/projects/acme/members')).body),
      'bob@example.com is now a viewer. The invitation they made was revoked.',
    );
    const late = await invitation('late@example.test', 'owner', BOB);
    const invitee = new Browser(app);
    const form = await invitationPage(late, invitee);
    const accepted = await invitee.post('/dashboard/invitation', {
      _csrf: csrfOf(form),
      token: late,
      password: 'quiet meadow lantern 42',
      repeat: 'quiet meadow lantern 42',
    });
    assert.equal(accepted.status, 404);
    assert.equal(await app.storage.accounts.byEmail('late@example.test'), undefined);
  });

  it('owners see who made each pending invitation and revoke it; the trail names its address and role', async () => {
    await invitation('one@example.test', 'developer', BOB);
    await invitation('two@example.test', 'viewer', null);
    const page = await ann.get('/dashboard/projects/acme/members');
    assert.match(
      page.body,
      /one@example\.test<\/span> · Developer · until\s+[\d-]+ ·\s+<span class="muted small wrap">by bob@example\.com/,
    );
    assert.match(
      page.body,
      /two@example\.test<\/span> · Viewer · until\s+[\d-]+ ·\s+<span class="muted small wrap">by the operator/,
    );
    const [pending] = (await app.storage.projects.pendingInvitations('prj_acme', app.clock.now())).filter(
      (found) => found.email === 'one@example.test',
    );
    const out = await ann.post(`/dashboard/projects/acme/invitations/${pending!.id}/revoke`, {
      _csrf: csrfOf(page),
    });
    assert.equal(out.status, 303);
    assert.deepEqual((await trail())[0], ['invitation_revoked', 'one@example.test as developer']);
    const bob = new Browser(app);
    await bob.signIn('bob@example.com', PASSWORD);
    await app.storage.projects.setRole(BOB, 'prj_acme', 'developer');
    assert.doesNotMatch(
      (await bob.get('/dashboard/projects/acme/members')).body,
      /two@example\.test/,
      'owners only',
    );
  });

  it('a second invitation accepted → the trail records the role given, or that the role stayed', async () => {
    await addAccount(app, 'dev@example.com', PASSWORD, []);
    const tokens = [
      await invitation('dev@example.com', 'viewer', ANN),
      await invitation('dev@example.com', 'owner', ANN),
      await invitation('dev@example.com', 'developer', ANN),
    ];
    for (const token of tokens) {
      const invitee = new Browser(app);
      const form = await invitationPage(token, invitee);
      const joined = await invitee.post('/dashboard/invitation', {
        _csrf: csrfOf(form),
        token,
        password: PASSWORD,
      });
      assert.equal(joined.status, 303, joined.body);
    }
    assert.equal(await app.storage.projects.roleOf('acc_dev_example_com', 'prj_acme'), 'owner');
    assert.deepEqual((await trail()).filter(([action]) => action !== 'sign_in').slice(0, 3), [
      ['invitation_accepted', 'dev@example.com stays owner (invitation as developer)'],
      ['role_changed', 'dev@example.com: viewer → owner (invitation)'],
      ['member_added', 'dev@example.com as viewer (invitation)'],
    ]);
  });
});
