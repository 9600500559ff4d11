import assert from 'node:assert/strict';
import { OPERATOR } from '../src/features/shared/actor.ts';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createDnsResolver } from '../src/features/domains/dns.ts';
import { UNSERVE_AFTER_MS, VERIFY_WINDOW_MS } from '../src/features/domains/rules.ts';
import { parseHostHeader } from '../src/http/host-name.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import { postForm } from './dashboard-forms.ts';

const TARGET = 'acme.sites.localhost';
/** As in production: the API on its own host, so a name no project serves answers nothing. */
const HOSTS = { siteDomain: 'sites.localhost', apiHost: 'api.localhost' };

/** A dashboard form posted by a signed-in member, as the browser sends it. */

const page = (app: TestApp, who: SignedIn, url: string) =>
  app.request({ url, key: null, unchecked: true, headers: { cookie: who.cookie } });

/** A request to a host, as a visitor's browser (through the TLS proxy) sends it. */
const visit = (app: TestApp, host: string, url = '/') =>
  app.request({ url, key: null, unchecked: true, headers: { host } });

const ask = (app: TestApp, domain: string) =>
  app.internal(`/internal/tls/ask?domain=${encodeURIComponent(domain)}`);

const domainsUrl = '/dashboard/projects/acme/domains';

describe('custom domains: the dashboard, serving by host and the TLS ask', () => {
  let zone: ZoneServer;
  let app: TestApp;
  let owner: SignedIn;
  let rival: SignedIn;

  before(async () => {
    zone = await startZoneServer();
    zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
    app = await makeTestApp({ dns: createDnsResolver([zone.address]), hosts: HOSTS });
    owner = await app.signedInMember('acme');
    rival = await app.signedInMember('zoo', { plan: 'pro' });
  });
  after(async () => {
    await app.close();
    await zone.close();
  });

  /** Posts the add form and follows its 303 back to the domains page (post/redirect/get). */
  const refusedAdd = async (who: SignedIn, url: string, hostname: string) => {
    const response = await postForm(app, who, url, { hostname });
    assert.equal(response.status, 303, hostname);
    assert.equal(response.headers.location, url);
    const shown = await page(app, who, url);
    assert.equal(shown.status, 200);
    return shown;
  };

  it('POST domains below Pro → 303 back, the page names the plan needed once, nothing stored', async () => {
    const response = await refusedAdd(owner, domainsUrl, 'docs.example.test');
    assert.match(
      response.body,
      /Custom domains need the Pro plan or above; this project is on the Free\s+plan/,
    );
    assert.equal(await app.storage.domains.get('docs.example.test'), undefined);
  });

  it('on Pro: a typed name is made canonical, added, and the records to create are shown with the 48-hour note', async () => {
    await app.storage.projects.setPlan('acme', 'pro', null, null);
    const response = await postForm(app, owner, domainsUrl, { hostname: '  Docs.Example.TEST. ' });
    assert.equal(response.status, 303, response.body);
    assert.equal(response.headers.location, `${domainsUrl}?done=added&domain=docs.example.test`);
    const shown = await page(app, owner, response.headers.location!);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /docs\.example\.test was added: create the records below\./);
    assert.match(shown.body, /Waiting for DNS/);
    assert.match(shown.body, /No CNAME for docs\.example\.test yet/);
    assert.match(
      shown.body,
      /<td class="mono">CNAME<\/td>\s*<td>\s*<div class="secret">\s*<output class="mono" id="record-0-0-name">docs<\/output/,
    );
    assert.match(shown.body, new RegExp(`<output class="mono" id="record-0-0">${TARGET}</output`));
    assert.match(shown.body, /up to 48 hours/);
  });

  it('names refused with the reason: an IP, a wildcard, a single label, the service own domains; nothing stored', async () => {
    for (const [hostname, reason] of [
      ['203.0.113.9', /IP address/i],
      ['*.example.test', /wildcard/i],
      ['docs', /./],
      ['acme.sites.localhost', /./],
      ['', /./],
    ] as const) {
      const response = await refusedAdd(owner, domainsUrl, hostname);
      assert.match(response.body, /id="domain-problem"/, hostname);
      assert.match(response.body, reason, hostname);
    }
    assert.equal((await app.storage.domains.listForProject('prj_acme')).length, 1);
  });

  it("a name another project holds → added as that project's claim (see domains-claims), its owner's domain untouched", async () => {
    const claimed = await postForm(app, rival, '/dashboard/projects/zoo/domains', {
      hostname: 'docs.example.test',
    });
    assert.equal(claimed.status, 303);
    assert.equal((await app.storage.domains.get('docs.example.test'))!.projectId, 'prj_acme');
    assert.equal((await app.storage.domains.get('docs.example.test', 'prj_zoo'))!.proofTxt, true);
    const zoo = (await app.storage.projects.bySlug('zoo'))!;
    assert.equal(
      (await (await app.app.domains.service()).remove(OPERATOR, zoo.slug, 'docs.example.test')).ok,
      true,
    );
    const again = await refusedAdd(owner, domainsUrl, 'docs.example.test');
    assert.match(again.body, /This project already has docs\.example\.test/);
  });

  it('pending → no docs on that host (404), no certificate (ask 404); the default host serves the site', async () => {
    const served = await visit(app, 'docs.example.test');
    assert.equal(served.status, 404);
    assert.doesNotMatch(served.body, /petstore-docs-title/);
    assert.equal((await visit(app, 'docs.example.test', '/docs')).status, 404, 'not the API docs either');
    assert.equal((await ask(app, 'docs.example.test')).status, 404);
    assert.equal((await visit(app, TARGET)).status, 200);
    assert.equal((await ask(app, TARGET)).status, 200);
  });

  it('the CNAME appears, "Check now" → verified and primary; the domain serves the docs, the default host 301s there with path and query', async () => {
    zone.set('docs.example.test', [{ type: 'CNAME', value: TARGET }]);
    const checked = await postForm(app, owner, `${domainsUrl}/docs.example.test/check`);
    assert.equal(checked.status, 303);
    const shown = await page(app, owner, checked.headers.location!);
    assert.match(shown.body, /docs\.example\.test was checked just now: verified, it is served\./);
    assert.match(shown.body, /Verified/);
    assert.match(shown.body, /<span class="badge">Primary<\/span>/);
    assert.match(shown.body, /✓ found/);

    const served = await visit(app, 'docs.example.test');
    assert.equal(served.status, 200);
    assert.match(served.body, /<meta name="petstore-docs-title" content="Project acme" \/>/);
    assert.equal((await ask(app, 'docs.example.test')).status, 200);
    assert.equal((await ask(app, 'DOCS.example.test.')).status, 200, 'as a TLS proxy may spell it');

    const moved = await visit(app, TARGET, '/docs/assets/app.js?v=1&x=%20y');
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, 'http://docs.example.test/docs/assets/app.js?v=1&x=%20y');
  });

  it('a second verified domain → 301 to the primary; "Make primary" turns the redirect around in one action', async () => {
    zone.set('www.example.test', [{ type: 'CNAME', value: TARGET }]);
    assert.equal((await postForm(app, owner, domainsUrl, { hostname: 'www.example.test' })).status, 303);
    const toPrimary = await visit(app, 'www.example.test', '/?q=1');
    assert.equal(toPrimary.status, 301);
    assert.equal(toPrimary.headers.location, 'http://docs.example.test/?q=1');

    const made = await postForm(app, owner, `${domainsUrl}/www.example.test/primary`);
    assert.equal(made.status, 303);
    assert.match(
      (await page(app, owner, made.headers.location!)).body,
      /www\.example\.test is now the primary domain/,
    );
    assert.equal((await visit(app, 'www.example.test')).status, 200);
    const back = await visit(app, 'docs.example.test', '/x');
    assert.equal(back.status, 301);
    assert.equal(back.headers.location, 'http://www.example.test/x');
    assert.equal((await visit(app, TARGET)).headers.location, 'http://www.example.test/');
  });

  it('"Make primary" on a domain that is not verified → 303, the reason shown once, the primary unchanged', async () => {
    zone.set('wait.example.test', []);
    await postForm(app, owner, domainsUrl, { hostname: 'wait.example.test' });
    const refused = await postForm(app, owner, `${domainsUrl}/wait.example.test/primary`);
    assert.equal(refused.status, 303);
    assert.equal(refused.headers.location, domainsUrl);
    const shown = await page(app, owner, domainsUrl);
    assert.match(shown.body, /must be verified before it can be the primary domain/);
    assert.equal(await app.storage.domains.primaryOf('prj_acme'), 'www.example.test');
  });

  it('an A record beside the name → failed, the page names the address and what to do (the spec rule)', async () => {
    zone.set('blocked.example.test', [{ type: 'A', value: '203.0.113.9' }]);
    await postForm(app, owner, domainsUrl, { hostname: 'blocked.example.test' });
    const shown = await page(app, owner, domainsUrl);
    assert.match(shown.body, /Needs attention/);
    assert.match(
      shown.body,
      /A record 203\.0\.113\.9 exists for blocked\.example\.test; delete it, then add the CNAME to acme\.sites\.localhost/,
    );
    assert.equal((await visit(app, 'blocked.example.test')).status, 404);
    assert.equal((await ask(app, 'blocked.example.test')).status, 404);
  });

  it("another project's member: check, primary and remove on acme's domain → 404, nothing changed", async () => {
    for (const action of ['check', 'primary', 'remove']) {
      const response = await postForm(
        app,
        rival,
        `/dashboard/projects/zoo/domains/www.example.test/${action}`,
      );
      assert.equal(response.status, 404, action);
      const direct = await postForm(app, rival, `${domainsUrl}/www.example.test/${action}`);
      assert.equal(direct.status, 404, `${action} on the other project's page`);
    }
    assert.equal((await visit(app, 'www.example.test')).status, 200);
    assert.equal(await app.storage.domains.primaryOf('prj_acme'), 'www.example.test');
  });

  it('downgrade below Pro → every domain suspended: no docs, no certificate, the default host serves again; upgrade → back', async () => {
    await app.storage.projects.setPlan('acme', 'free', null, null);
    for (const host of ['www.example.test', 'docs.example.test']) {
      assert.equal((await visit(app, host)).status, 404, host);
      assert.equal((await ask(app, host)).status, 404, host);
    }
    assert.equal((await visit(app, TARGET)).status, 200, 'no redirect to a suspended domain');
    const shown = await page(app, owner, domainsUrl);
    assert.match(shown.body, /Suspended/);
    assert.match(shown.body, /comes back by itself/);

    await app.storage.projects.setPlan('acme', 'business', null, null);
    assert.equal((await visit(app, 'www.example.test')).status, 200);
    assert.equal((await ask(app, 'www.example.test')).status, 200);
    assert.equal((await visit(app, TARGET)).status, 301);
  });

  it('records removed after verification → served until the background checks have seen them gone for an hour, then not (no dangling CNAME)', async () => {
    zone.set('docs.example.test', []);
    app.clock.advance(7 * 60 * 60_000);
    await (await app.app.domains.service()).checkDue();
    assert.equal((await app.storage.domains.get('docs.example.test'))!.state, 'verified');
    assert.equal(
      (await visit(app, 'docs.example.test')).status,
      301,
      'one check is not enough: still served (to the primary)',
    );
    app.clock.advance(UNSERVE_AFTER_MS);
    await (await app.app.domains.service()).checkDue();
    const domain = await app.storage.domains.get('docs.example.test');
    assert.equal(domain!.state, 'failed');
    assert.match(domain!.reason!, /no longer point here/);
    assert.equal((await visit(app, 'docs.example.test')).status, 404);
    assert.equal((await ask(app, 'docs.example.test')).status, 404);
    assert.equal((await visit(app, 'www.example.test')).status, 200, 'the primary is unaffected');
    // The change is in the audit trail, by the service; the check that changed nothing is not.
    const byService = (await app.storage.audit.list({ projectId: 'prj_acme', limit: 100 })).filter(
      (event) => event.actor === 'service',
    );
    assert.deepEqual(
      byService.map((event) => [event.action, event.target, event.address, event.actorAccountId]),
      [['domain_checked', 'docs.example.test: failed', null, null]],
    );
    const activity = await page(app, owner, `/dashboard/projects/acme/activity`);
    // Tokens are marked so that they never break inside (views/tokens.ts): the text is the same.
    assert.match(
      activity.body.replace(/<span class="token">([^<]*)<\/span>/g, '$1'),
      /docs\.example\.test: failed<\/td>\s*<td class="mono" data-label="From">\s*background check\s*</,
    );
  });

  it('nothing seen for 48 hours → failed with the reason; "Check now" still works after', async () => {
    const before = await app.storage.domains.get('wait.example.test');
    app.clock.set(before!.createdAt + VERIFY_WINDOW_MS);
    await (await app.app.domains.service()).checkDue(100);
    const domain = await app.storage.domains.get('wait.example.test');
    assert.equal(domain!.state, 'failed');
    assert.match(domain!.reason!, /not verified within 48 hours/);
    const [latest] = await app.storage.audit.list({ projectId: 'prj_acme', limit: 1 });
    assert.deepEqual(
      [latest!.actor, latest!.action, latest!.target],
      ['service', 'domain_checked', 'wait.example.test: failed'],
    );
    zone.set('wait.example.test', [{ type: 'CNAME', value: TARGET }]);
    owner = await app.signedInMember('acme'); // two days later: a new sign-in
    assert.equal((await postForm(app, owner, `${domainsUrl}/wait.example.test/check`)).status, 303);
    assert.equal((await app.storage.domains.get('wait.example.test'))!.state, 'verified');
  });

  it('remove: a confirmation page, then 303; from that answer on, no docs, no certificate, no redirect to it', async () => {
    const confirm = await page(app, owner, `${domainsUrl}/www.example.test/remove`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /Remove www\.example\.test\?/);
    const removed = await postForm(app, owner, `${domainsUrl}/www.example.test/remove`);
    assert.equal(removed.status, 303);
    for (const url of ['/', '/docs', '/dashboard/sign-in', '/openapi.json']) {
      const response = await visit(app, 'www.example.test', url);
      assert.equal(response.status, 404, url);
      assert.doesNotMatch(response.body, /petstore-docs-title|API reference/, url);
    }
    assert.equal((await ask(app, 'www.example.test')).status, 404);
    assert.match((await page(app, owner, removed.headers.location!)).body, /www\.example\.test was removed/);
    const next = await visit(app, TARGET);
    assert.equal(next.status, 301, 'the next verified domain is the primary now');
    assert.equal(next.headers.location, 'http://wait.example.test/');
  });

  it('property: a Host gets docs, and the TLS ask says yes, exactly for a served name, however it is spelt', async () => {
    const servedDomains = new Set(await app.storage.domains.listServed());
    const defaultHosts = new Set(['acme.sites.localhost', 'zoo.sites.localhost']);
    const known = [
      ...servedDomains,
      ...defaultHosts,
      ...['docs.example.test', 'www.example.test', 'wait.example.test', 'blocked.example.test'],
      'unknown.example.test',
      'localhost',
    ];
    const spelling = fc.record({
      name: fc.constantFrom(...known),
      upper: fc.boolean(),
      dot: fc.boolean(),
      port: fc.option(fc.integer({ min: 1, max: 65_535 })),
      prefix: fc.option(fc.constantFrom('x.', 'www.', '-', 'a')),
      suffix: fc.option(fc.constantFrom('.evil.example', 'x', '.', ':', '%2e')),
    });
    await fc.assert(
      fc.asyncProperty(spelling, async ({ name, upper, dot, port, prefix, suffix }) => {
        let host = `${prefix ?? ''}${name}${suffix ?? ''}`;
        if (upper) host = host.toUpperCase();
        if (dot) host = `${host}.`;
        const header = port === null ? host : `${host}:${port}`;
        // Read as the WHATWG URL parser reads a host (`%2e` is a dot), like browsers and the service.
        const visited = parseHostHeader(header)?.hostname ?? '';
        const asked = parseHostHeader(host)?.hostname ?? '';
        const served = (name: string) => servedDomains.has(name) || defaultHosts.has(name);
        const servedNow = served(visited);
        const response = await visit(app, header);
        if (servedNow) {
          assert.ok([200, 301].includes(response.status), `${header} → ${response.status}`);
        } else {
          // 429: the 404s of one client address meet its budget.
          assert.ok([302, 404, 400, 429].includes(response.status), `${header} → ${response.status}`);
          assert.doesNotMatch(response.body, /petstore-docs-title/, header);
          // The API host's GET / redirect, only for a name that was never a custom domain.
          if (response.status === 302) assert.ok(!known.slice(0, -2).includes(visited), header);
        }
        const answer = await ask(app, host);
        assert.equal(answer.status, served(asked) ? 200 : 404, `ask ${host}`);
      }),
      { numRuns: 200 },
    );
  });

  it('a crafted notice link shows nothing: only fixed sentences, only for a name shaped like a host', async () => {
    for (const query of [
      '?notice=Your+account+is+locked',
      '?done=added&domain=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '?done=hacked&domain=docs.example.test',
      '?done=added&domain=call%20us%20at%20evil.example',
    ]) {
      const shown = await page(app, owner, `${domainsUrl}${query}`);
      assert.equal(shown.status, 200, query);
      assert.doesNotMatch(shown.body, /role="status"/, query);
    }
  });
});

/**
 * Two instances of the service on one database, each with its own connection and its own host cache:
 * what one acknowledges about a domain holds on the other from its next request (the change feed).
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`custom domains on two instances sharing ${backend}`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let zone: ZoneServer;
    let a: TestApp;
    let b: TestApp;
    let owner: SignedIn;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      zone = await startZoneServer();
      zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-domains-',
      );
      const { open } = shared;
      cleanup = shared.cleanup;
      const dns = createDnsResolver([zone.address]);
      a = await makeTestApp({ storage: await open(), dns, hosts: HOSTS });
      const storage = await open();
      b = await makeTestApp({
        storage,
        dns,
        clock: a.clock,
        hosts: HOSTS,
        // B never reads the feed on its own: what it serves must not wait for its timer.
        changePollMs: 3_600_000,
      });
      owner = await a.signedInMember('acme', { plan: 'pro' });
    });
    after(async () => {
      if (skip) return;
      await a.close();
      await b.close();
      await zone.close();
      await cleanup();
    });

    it(
      'added and verified on A → from its answer on, B serves the site there and never its own pages',
      { skip },
      async () => {
        zone.set('shared.example.test', [{ type: 'CNAME', value: TARGET }]);
        assert.equal((await postForm(a, owner, domainsUrl, { hostname: 'shared.example.test' })).status, 303);
        assert.equal((await visit(a, 'shared.example.test')).status, 200);
        assert.equal((await ask(b, 'shared.example.test')).status, 200);
        assert.equal((await visit(b, 'shared.example.test')).status, 200);
        for (const url of ['/docs', '/dashboard/sign-in', '/openapi.json']) {
          const page = await visit(b, 'shared.example.test', url);
          assert.equal(page.status, 404, url);
          assert.doesNotMatch(page.body, /Sign in|"openapi"/, url);
        }
      },
    );

    it('a primary chosen on A → B redirects to it on its next request', { skip }, async () => {
      zone.set('other.example.test', [{ type: 'CNAME', value: TARGET }]);
      await postForm(a, owner, domainsUrl, { hostname: 'other.example.test' });
      await postForm(a, owner, `${domainsUrl}/other.example.test/primary`);
      const moved = await visit(b, 'shared.example.test', '/a?b=c');
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.location, 'http://other.example.test/a?b=c');
    });

    it(
      'removed on A → from the 303 on, B serves no docs, no certificate and none of its own pages there',
      { skip },
      async () => {
        assert.equal((await visit(b, 'other.example.test')).status, 200);
        const removed = await postForm(a, owner, `${domainsUrl}/other.example.test/remove`);
        assert.equal(removed.status, 303);
        for (const url of ['/', '/docs', '/dashboard/sign-in']) {
          const response = await visit(b, 'other.example.test', url);
          assert.equal(response.status, 404, url);
          assert.doesNotMatch(response.body, /petstore-docs-title|API reference|Sign in/, url);
        }
        assert.equal((await ask(b, 'other.example.test')).status, 404);
        assert.equal(
          (await visit(b, 'shared.example.test')).status,
          200,
          'the other domain is primary again',
        );
      },
    );

    it(
      'the plan lowered through B → A stops serving every domain of the project at once',
      { skip },
      async () => {
        await b.storage.projects.setPlan('acme', 'free', null, null);
        assert.equal((await visit(a, 'shared.example.test')).status, 404);
        assert.equal((await ask(a, 'shared.example.test')).status, 404);
      },
    );
  });
}
