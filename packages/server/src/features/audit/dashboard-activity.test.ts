import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { addAccount, Browser, createKeyIn, csrfOf } from '../../../test/dashboard-support.ts';

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

  it('filters by who, action and days, kept by the pager and the CSV export; a viewer’s export has no addresses', async () => {
    const day = (offset: number) =>
      new Date(app.clock.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const record = (actor: string, action: 'key_created' | 'key_revoked', target: string) =>
      app.storage.audit.record({
        at: app.clock.now(),
        projectId: 'prj_acme',
        actorAccountId: null,
        actor,
        action,
        target,
        address: '192.0.2.7',
        via: 'dashboard',
      });
    await record('operator', 'key_created', '=HYPERLINK("x")');
    app.clock.advance(86_400_000);
    await record('ann@example.com', 'key_revoked', 'yesterday’s key');
    await record('ann@example.com', 'key_created', 'today, with "quotes"');
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);

    const byAnn = await ann.get('/dashboard/projects/acme/activity?actor=ANN@example.com&action=key_created');
    assert.equal(byAnn.status, 200);
    assert.match(byAnn.body, /today, with &quot;quotes&quot;|today, with "quotes"/);
    assert.doesNotMatch(byAnn.body, /yesterday’s key|HYPERLINK/);
    assert.match(byAnn.body, /<option value="key_created"\s+selected/);
    assert.match(byAnn.body, /activity\.csv\?actor=ANN%40example\.com&amp;action=key_created/);

    const yesterday = await ann.get(`/dashboard/projects/acme/activity?from=${day(-1)}&to=${day(-1)}`);
    assert.match(yesterday.body, /HYPERLINK/);
    assert.doesNotMatch(yesterday.body, /yesterday’s key/);
    assert.match(
      (await ann.get(`/dashboard/projects/acme/activity?from=${day(1)}`)).body,
      /Nothing matches these filters/,
    );

    for (const bad of [
      'action=drop_table',
      'from=2026-02-30',
      'from=2026-11-29&to=2026-11-28',
      'actor=a&actor=b',
    ]) {
      const refused = await ann.get(`/dashboard/projects/acme/activity?${bad}`);
      assert.equal(refused.status, 400, bad);
    }

    const csv = await ann.get('/dashboard/projects/acme/activity.csv?actor=operator');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="acme-activity-.+Z\.csv"/);
    const lines = csv.body.split('\r\n');
    assert.equal(lines[0], 'at,actor,action,target,via,address');
    assert.match(lines[1]!, /^\d{4}-.+Z,operator,key_created,"'=HYPERLINK\(""x""\)",dashboard,192\.0\.2\.7$/);
    assert.equal(lines.filter(Boolean).length, 2);

    const vic = new Browser(app);
    await vic.signIn('vic@example.com', PASSWORD);
    const viewer = await vic.get('/dashboard/projects/acme/activity.csv');
    assert.equal(viewer.body.split('\r\n')[0], 'at,actor,action,target,via');
    assert.doesNotMatch(viewer.body, /192\.0\.2\.7/);
  });

  it('the pager keeps the filters: every page of a filtered trail is filtered', async () => {
    for (let i = 0; i < 130; i++) {
      await app.storage.audit.record({
        at: app.clock.now() + i,
        projectId: 'prj_acme',
        actorAccountId: null,
        actor: i % 2 === 0 ? 'operator' : 'service',
        action: 'key_created',
        target: `key number ${i}`,
        address: null,
      });
    }
    const ann = new Browser(app);
    await ann.signIn('ann@example.com', PASSWORD);
    const shown: number[] = [];
    let url: string | undefined = '/dashboard/projects/acme/activity?actor=operator';
    while (url) {
      const page = await ann.get(url);
      assert.equal(page.status, 200);
      shown.push(...[...page.body.matchAll(/key number (\d+)/g)].map((m) => Number(m[1])));
      const next = /href="([^"]+)" rel="next"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
      if (next) assert.match(next, /actor=operator&before=/);
      url = next;
    }
    assert.equal(shown.length, 65);
    assert.ok(shown.every((n) => n % 2 === 0));
  });
});
