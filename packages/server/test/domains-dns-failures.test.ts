import assert from 'node:assert/strict';
import { OPERATOR } from '../src/features/shared/actor.ts';
import { after, before, describe, it } from 'node:test';
import {
  MIN_RECHECK_MS,
  UNSERVE_AFTER_MS,
  VERIFIED_RECHECK_MS,
  WRONG_RECHECK_MS,
} from '../src/features/domains/rules.ts';
import type { Project } from '../src/features/projects/project-repository.ts';
import { startZoneServer, type ZoneMode, type ZoneServer } from './dns-zone-server.ts';
import { zoneResolver } from './zone-resolver.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { postForm } from './dashboard-forms.ts';

const TARGET = 'acme.sites.localhost';
const HOST = 'docs.example.test';

const visit = (app: TestApp, host: string) =>
  app.request({ url: '/', key: null, unchecked: true, headers: { host } });

// Only a DNS answer changes a domain's state: a resolver that is down, refuses, fails or is too slow
// leaves a verified domain served and primary, says so on its card, and is asked again with backoff.
describe('custom domains when DNS fails: the answer decides, never the failure', () => {
  let zone: ZoneServer;
  let app: TestApp;
  let owner: SignedIn | undefined;
  let project: Project;

  before(async () => {
    zone = await startZoneServer();
    zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
    zone.set(HOST, [{ type: 'CNAME', value: TARGET }]);
    // As in production: the API on its own host, so a name no project serves answers nothing.
    app = await makeTestApp({
      dns: zoneResolver(zone),
      hosts: { siteDomain: 'sites.localhost', apiHost: 'api.localhost' },
    });
    await app.signedInMember('acme', { plan: 'pro' });
    project = (await app.storage.projects.bySlug('acme'))!;
    const added = await (await app.app.domains.service()).add(OPERATOR, project.slug, HOST);
    assert.equal(added.ok && added.value.state, 'verified');
    assert.equal((await visit(app, HOST)).status, 200);
  });
  after(async () => {
    await app.close();
    await zone.close();
  });

  /** The domains page, signed in afresh (the fake clock moves days ahead, past any session). */
  const card = async () => {
    owner = await app.signedInMember('acme');
    return (
      await app.request({
        url: '/dashboard/projects/acme/domains',
        key: null,
        unchecked: true,
        headers: { cookie: owner.cookie },
      })
    ).body;
  };

  /** Moves the clock to the domain's next check and runs the background round. */
  const nextCheck = async () => {
    app.clock.set((await app.storage.domains.get(HOST))!.nextCheckAt);
    assert.equal(await (await app.app.domains.service()).checkDue(), 1);
    return (await app.storage.domains.get(HOST))!;
  };

  const failures: [string, ZoneMode | 'stopped', RegExp][] = [
    [
      'stopped',
      'stopped',
      /Could not check: (the DNS server refused the connection|no answer from DNS in time) for docs\.example\.test, will retry/,
    ],
    [
      'refusing',
      'refuse',
      /Could not check: the DNS server refused the query \(REFUSED\) for docs\.example\.test, will retry/,
    ],
    [
      'SERVFAIL',
      'servfail',
      /Could not check: the DNS server could not answer \(SERVFAIL\) for docs\.example\.test, will retry/,
    ],
    ['silent', 'silent', /Could not check: no answer from DNS in time for docs\.example\.test, will retry/],
    [
      'slower than the timeout',
      { delayMs: 1_000 },
      /Could not check: no answer from DNS in time for docs\.example\.test, will retry/,
    ],
  ];
  for (const [name, mode, shown] of failures) {
    it(`resolver ${name}, checked three times → still verified, served (200) and primary; the card says it could not check; retries back off 1, 2, 4 min`, async () => {
      app.clock.advance(VERIFIED_RECHECK_MS);
      if (mode === 'stopped') await zone.stop();
      else zone.behave(mode);
      try {
        for (const wait of [1, 2, 4]) {
          const domain = await nextCheck();
          assert.equal(domain.state, 'verified');
          assert.equal(domain.primary, true);
          assert.equal(domain.nextCheckAt, app.clock.now() + wait * MIN_RECHECK_MS);
          assert.equal((await visit(app, HOST)).status, 200);
          assert.equal(await app.storage.domains.primaryOf(project.id), HOST);
        }
        assert.match(await card(), shown);
        assert.match(await card(), /Verified/);
      } finally {
        if (mode === 'stopped') await zone.restart();
        else zone.behave('answer');
      }
      const answered = await nextCheck();
      assert.equal(answered.checkError, null);
      assert.equal(answered.checkFailures, 0);
      assert.equal(answered.nextCheckAt, app.clock.now() + VERIFIED_RECHECK_MS);
      assert.doesNotMatch(await card(), /Could not check/);
    });
  }

  it('"Check now" while DNS refuses → the trail says the owner could not check it and it stayed verified, never "Verified"', async () => {
    owner = await app.signedInMember('acme');
    zone.behave('refuse');
    try {
      const checked = await postForm(app, owner, `/dashboard/projects/acme/domains/${HOST}/check`);
      assert.equal(checked.status, 303);
      assert.match(checked.headers.location!, /done=unanswered/);
    } finally {
      zone.behave('answer');
    }
    const [last] = await app.storage.audit.list({ projectId: project.id, limit: 1 });
    assert.equal(last!.action, 'domain_checked');
    assert.match(last!.target!, /^docs\.example\.test: could not check \(.+\), still verified$/);
    assert.equal(last!.actorAccountId, owner.accountId);
    assert.equal(last!.via, 'dashboard');
  });

  it('records seen wrong once → still served, the card says until when; right again → the warning is gone', async () => {
    app.clock.advance(VERIFIED_RECHECK_MS);
    zone.set(HOST, [{ type: 'CNAME', value: 'elsewhere.example.net' }]);
    const wrong = await nextCheck();
    assert.equal(wrong.state, 'verified');
    assert.equal(wrong.wrongSince, app.clock.now());
    assert.equal(wrong.nextCheckAt, app.clock.now() + WRONG_RECHECK_MS);
    assert.equal((await visit(app, HOST)).status, 200);
    assert.match(await card(), /The records were seen wrong at .* Still served; if they are still wrong at/);
    zone.set(HOST, [{ type: 'CNAME', value: TARGET }]);
    const right = await nextCheck();
    assert.equal(right.wrongSince, null);
    assert.equal(right.reason, null);
  });

  it('records wrong in consecutive checks spanning less than an hour → served; a DNS failure between them neither resets nor ends the hour; at one hour → unserved', async () => {
    app.clock.advance(VERIFIED_RECHECK_MS);
    zone.set(HOST, []);
    const first = await nextCheck();
    const since = first.wrongSince!;
    zone.behave('servfail');
    assert.equal((await nextCheck()).wrongSince, since, 'no answer: the run goes on');
    zone.behave('answer');
    let domain = first;
    let checks = 1;
    while (app.clock.now() - since < UNSERVE_AFTER_MS) {
      assert.equal(domain.state, 'verified', `at +${(app.clock.now() - since) / 60_000} min`);
      assert.equal((await visit(app, HOST)).status, 200);
      domain = await nextCheck();
      checks++;
    }
    assert.equal(app.clock.now() - since, UNSERVE_AFTER_MS, 'unserved at the check one hour after the first');
    assert.equal(checks, 1 + UNSERVE_AFTER_MS / WRONG_RECHECK_MS);
    assert.equal(domain.state, 'failed');
    assert.match(domain.reason!, /no longer point here/);
    assert.equal((await visit(app, HOST)).status, 404);
    assert.match(await card(), /Needs attention/);
  });
});
