import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDnsResolver } from './dns.ts';
import { CHECK_INTERVAL_MS } from './rules.ts';
import { startZoneServer, type ZoneServer } from '../../../test/dns-zone-server.ts';
import { makeTestApp, type SignedIn, type TestApp } from '../../../test/harness.ts';

const TARGET = 'acme.sites.localhost';
const URL_ = '/dashboard/projects/acme/domains';
const HOST = { host: 'localhost:8080' };

const post = (app: TestApp, who: SignedIn, url: string, fields: Record<string, string> = {}) =>
  app.request({
    method: 'POST',
    url,
    key: null,
    unchecked: true,
    headers: { ...HOST, cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: who.csrfToken, ...fields }).toString(),
  });

const page = async (app: TestApp, who: SignedIn, url = URL_) => {
  const response = await app.request({
    url,
    key: null,
    unchecked: true,
    headers: { ...HOST, cookie: who.cookie },
  });
  assert.equal(response.status, 200, url);
  return response.body;
};

/** "Check now", then the page it leads to. */
const checkNow = async (app: TestApp, who: SignedIn, hostname: string) => {
  app.clock.advance(CHECK_INTERVAL_MS); // one check per domain every 10 s
  const response = await post(app, who, `${URL_}/${hostname}/check`);
  assert.equal(response.status, 303);
  return page(app, who, response.headers.location!);
};

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe('the domains page: what the cards say, and who sees which forms', () => {
  let zone: ZoneServer;
  let app: TestApp;
  let owner: SignedIn;
  let viewer: SignedIn;

  before(async () => {
    zone = await startZoneServer();
    zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
    app = await makeTestApp({ dns: createDnsResolver([zone.address], { timeoutMs: 200 }) });
    owner = await app.signedInMember('acme');
    viewer = await app.signedInMember('acme');
    assert.equal(
      (await app.storage.projects.setRole(viewer.accountId, owner.projectId, 'viewer')).outcome,
      'done',
    );
  });
  after(async () => {
    await app.close();
    await zone.close();
  });

  it('Free plan: the add form is disabled with one explanation; a submitted form → 303, the explanation still once, no second refusal', async () => {
    const shown = await page(app, owner);
    assert.match(shown, /<fieldset disabled aria-describedby="plan-needed">/);
    assert.equal(count(shown, /need the Pro plan or above/), 1);
    const refused = await post(app, owner, URL_, { hostname: 'docs.example.test' });
    assert.equal(refused.status, 303);
    const after = await page(app, owner);
    assert.equal(count(after, /need the Pro plan or above/), 1);
    assert.doesNotMatch(after, /id="domain-problem"/);
    assert.match(after, /No custom domains yet/);
  });

  it('a refusal on Pro starts with a capital letter', async () => {
    await app.storage.projects.setPlan('acme', 'pro', null, null);
    assert.equal((await post(app, owner, URL_, { hostname: '203.0.113.9' })).status, 303);
    assert.match(await page(app, owner), /id="domain-problem"[^>]*>An IP address is not a domain name/);
    assert.equal((await post(app, owner, URL_, { hostname: 'docs' })).status, 303);
    assert.match(await page(app, owner), /id="domain-problem"[^>]*>The name docs is a single label/);
  });

  it('records: the name as the provider wants it (docs, @, _petstore) with a Copy button, and the full name', async () => {
    assert.equal((await post(app, owner, URL_, { hostname: 'docs.example.test' })).status, 303);
    assert.equal((await post(app, owner, URL_, { hostname: 'example.test' })).status, 303);
    const shown = await page(app, owner);
    assert.match(
      shown,
      /<output class="mono" id="record-0-0-name">docs<\/output\s*><button type="button" class="secondary" data-copy="record-0-0-name" hidden>Copy<\/button>\s*<\/div>\s*<div class="small muted mono">docs\.example\.test<\/div>/,
    );
    assert.match(shown, /id="record-1-0-name">@<\/output/);
    assert.match(shown, /id="record-1-1-name">_petstore<\/output/);
    assert.match(shown, /<div class="small muted mono">_petstore\.example\.test<\/div>/);
    assert.doesNotMatch(
      shown,
      /<script>|onclick=/,
      'no inline script: the copy buttons come from dashboard.js',
    );
  });

  it('"Check now" says what it found: not seen yet, needs attention, verified, no DNS answer', async () => {
    const pending = await checkNow(app, owner, 'docs.example.test');
    assert.match(
      pending,
      /class="notice info"[^>]*>docs\.example\.test was checked just now: its records are not seen yet/,
    );
    assert.match(pending, /<p>No CNAME for docs\.example\.test yet/, 'the reason starts with a capital');

    zone.set('docs.example.test', [{ type: 'A', value: '203.0.113.9' }]);
    const failed = await checkNow(app, owner, 'docs.example.test');
    assert.match(
      failed,
      /class="notice error"[^>]*>docs\.example\.test was checked just now: it needs attention/,
    );
    assert.doesNotMatch(failed, /verified, it is served/);
    assert.match(failed, /<p>An A record 203\.0\.113\.9 exists/);

    zone.set('docs.example.test', [{ type: 'CNAME', value: TARGET }]);
    const verified = await checkNow(app, owner, 'docs.example.test');
    assert.match(
      verified,
      /class="notice success"[^>]*>docs\.example\.test was checked just now: verified, it is served\./,
    );

    zone.behave('servfail');
    try {
      const unanswered = await checkNow(app, owner, 'docs.example.test');
      assert.match(
        unanswered,
        /class="notice error"[^>]*>docs\.example\.test could not be checked just now: DNS gave no answer/,
      );
      assert.match(
        unanswered,
        /Could not check: the DNS server could not answer \(SERVFAIL\) for docs\.example\.test, will retry/,
      );
      // The records shown are the last answer's, and say when it was seen.
      assert.match(
        unanswered,
        /<th scope="col">Last seen <span class="hint">\(<time>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>\)<\/span><\/th>/,
      );
    } finally {
      zone.behave('answer');
    }
  });

  it('a verified card does not promise the 48-hour wait; a waiting card does', async () => {
    const shown = await page(app, owner);
    const cards = shown.split('<section class="card" aria-labelledby="domain-').slice(1);
    const docs = cards.find((card) => card.includes('docs.example.test <span class="badge ok">Verified'))!;
    const apex = cards.find((card) => card.includes('example.test <span class="badge warn">'))!;
    assert.ok(docs && apex);
    assert.doesNotMatch(docs, /48 hours|checked again by itself until\s+then/);
    assert.match(docs, /checked again every 6 hours/);
    assert.match(apex, /48 hours/);
  });

  it('the Overview and Projects lead with the primary domain the default address redirects to, on the same port', async () => {
    const overview = await page(app, owner, '/dashboard/projects/acme');
    assert.match(overview, /<a class="token" href="http:\/\/docs\.example\.test:8080\/"/);
    assert.match(
      overview,
      /Also at <span class="token">acme\.sites\.localhost:8080<\/span>,\s+which redirects there/,
    );
    const projects = await page(app, owner, '/dashboard');
    assert.match(projects, /Docs site: <span class="token">docs\.example\.test:8080<\/span>/);
    const domains = await page(app, owner);
    assert.match(domains, />acme\.sites\.localhost:8080<\/a/);
  });

  it('a viewer sees the domains but no add form and no Check now, Make primary or Remove', async () => {
    const shown = await page(app, viewer);
    assert.match(shown, /docs\.example\.test/);
    assert.doesNotMatch(shown, /name="hostname"|Add domain|Check now|Make primary|>Remove/);
    assert.match(shown, /Only an owner of the project can add, check or remove its domains/);
    assert.equal((await post(app, viewer, URL_, { hostname: 'x.example.test' })).status, 403);
    const own = await page(app, owner);
    assert.match(own, /name="hostname"/);
    assert.match(own, /Check now/);
  });

  it('removing the last domain → an empty state, not a blank page', async () => {
    let location = '';
    for (const hostname of ['docs.example.test', 'example.test']) {
      const removed = await post(app, owner, `${URL_}/${hostname}/remove`);
      assert.equal(removed.status, 303);
      location = removed.headers.location!;
    }
    const shown = await page(app, owner, location);
    assert.match(shown, /<h2 id="no-domains">No custom domains yet<\/h2>/);
    assert.match(shown, /example\.test was removed/);
  });
});
