import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';
import { addAccount, Browser, createKeyIn, csrfOf } from './dashboard-support.ts';

const PASSWORD = 'correct horse battery staple';

describe('dashboard Activity tab and audit trail', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await makeTestApp();
    await addAccount(app, 'ann@example.com', PASSWORD, ['acme']);
    await addAccount(app, 'vic@example.com', PASSWORD, ['acme']);
    await addAccount(app, 'out@example.com', PASSWORD, ['other']);
    await app.storage.projects.setRole('acc_vic_example_com', 'prj_acme', 'viewer');
  });
  afterEach(() => app.close());

  it('sign-in, key created and revoked, rename → recorded with who, when and from where; a viewer reads the project’s', async () => {
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
    await createKeyIn(ann, 'acme', 'Storefront');
    const [key] = await app.storage.keys.list('prj_acme');
    const revoke = await ann.get(`/dashboard/projects/acme/keys/${key!.id}/revoke`);
    await ann.post(`/dashboard/projects/acme/keys/${key!.id}/revoke`, { _csrf: csrfOf(revoke) });
    const overview = await ann.get('/dashboard/projects/acme');
    await ann.post('/dashboard/projects/acme', { _csrf: csrfOf(overview), name: 'Acme Docs' });
    const outsider = new Browser(app);
    await outsider.signIn('out@example.com', PASSWORD);

    const events = await app.storage.audit.list({ projectId: 'prj_acme', limit: 10, accountEvents: true });
    assert.deepEqual(
      events.map((e) => [e.actor, e.action, e.address]),
      [
        ['ann@example.com', 'project_renamed', '127.0.0.1'],
        ['ann@example.com', 'key_revoked', '127.0.0.1'],
        ['ann@example.com', 'key_created', '127.0.0.1'],
        ['ann@example.com', 'sign_in', '127.0.0.1'],
      ],
    );
    assert.match(events[2]!.target!, /“Storefront” \(ps_test_/);
    assert.equal(events[0]!.target, 'Project acme → Acme Docs');

    const vic = new Browser(app);
    await vic.signIn('vic@example.com', PASSWORD);
    const page = await vic.get('/dashboard/projects/acme/activity');
    assert.equal(page.status, 200);
    assert.match(page.body, /Created a key/);
    assert.match(page.body, /Revoked a key/);
    assert.match(page.body, /Storefront/);
    assert.match(page.body, /aria-current="page">Activity</);
    assert.doesNotMatch(page.body, /out@example\.com/);
  });

  it('sign-ins → owners see members’ own from the day each joined, with addresses; a viewer sees neither', async () => {
    await addAccount(app, 'late@example.com', PASSWORD, ['other']);
    const late = new Browser(app);
    await late.signIn('late@example.com', PASSWORD);
    app.clock.advance(60_000);
    await app.storage.projects.addMember('acc_late_example_com', 'prj_acme', app.clock.now(), 'developer');
    app.clock.advance(60_000);
    const again = new Browser(app);
    await again.signIn('late@example.com', PASSWORD);
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
    await createKeyIn(ann, 'acme', 'Storefront');
    const vic = new Browser(app);
    await vic.signIn('vic@example.com', PASSWORD);

    const seen = await ann.get('/dashboard/projects/acme/activity');
    const signIns = [
      ...seen.body.matchAll(
        /data-label="Who">(?:<span class="token">)?([^<]+)(?:<\/span>)?<\/td>\s*<td data-label="Action">Signed in/g,
      ),
    ];
    assert.deepEqual(
      signIns.map((match) => match[1]),
      ['vic@example.com', 'ann@example.com', 'late@example.com'],
      'one sign-in of late@example.com: the one after joining',
    );
    assert.match(seen.body, /<th scope="col">From<\/th>/);
    assert.match(seen.body, /data-label="From">\s*127\.0\.0\.1/);

    const viewed = await vic.get('/dashboard/projects/acme/activity');
    assert.match(viewed.body, /Created a key/);
    assert.doesNotMatch(viewed.body, /data-label="Action">Signed in/);
    assert.doesNotMatch(viewed.body, /127\.0\.0\.1|data-label="From"/);
  });

  it('Activity with a malformed position → 400; an outsider → 404', async () => {
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
    assert.equal((await ann.get('/dashboard/projects/acme/activity?before=nope')).status, 400);
    const out = new Browser(app);
    await out.signIn('out@example.com', PASSWORD);
    assert.equal((await out.get('/dashboard/projects/acme/activity')).status, 404);
  });
});
