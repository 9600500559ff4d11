import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDnsResolver } from '../src/features/domains/dns.ts';
import {
  ADDS_PER_HOUR,
  CHECK_INTERVAL_MS,
  RELEASE_FAILED_AFTER_MS,
  VERIFY_WINDOW_MS,
} from '../src/features/domains/rules.ts';
import { createDomainsService } from '../src/features/domains/service.ts';
import { OPERATOR } from '../src/features/shared/actor.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { postForm } from './dashboard-forms.ts';

const HOST = 'docs.example.test';
const ACME = 'acme.sites.localhost';
const ZOO = 'zoo.sites.localhost';

const page = async (app: TestApp, who: SignedIn, url: string) =>
  (await app.request({ url, key: null, unchecked: true, headers: { cookie: who.cookie } })).body;
const visit = (app: TestApp, host: string) =>
  app.request({ url: '/', key: null, unchecked: true, headers: { host } });

// A name is settled by proof of control of its DNS, as Vercel does: a second project may claim a name
// another holds, and takes it over when its TXT ownership record and its CNAME are seen.
describe('contested names: settled by proof, never by who came first, never naming the holder', () => {
  let zone: ZoneServer;
  let app: TestApp;
  let acme: SignedIn;
  let zoo: SignedIn;
  const acmeUrl = '/dashboard/projects/acme/domains';
  const zooUrl = '/dashboard/projects/zoo/domains';

  before(async () => {
    zone = await startZoneServer();
    zone.set(ACME, [{ type: 'A', value: '198.51.100.7' }]);
    zone.set(ZOO, [{ type: 'A', value: '198.51.100.7' }]);
    zone.set(HOST, [{ type: 'CNAME', value: ACME }]);
    app = await makeTestApp({ dns: createDnsResolver([zone.address], { timeoutMs: 200 }) });
    acme = await app.signedInMember('acme', { plan: 'pro' });
    zoo = await app.signedInMember('zoo', { plan: 'pro' });
    assert.equal((await postForm(app, acme, acmeUrl, { hostname: HOST })).status, 303);
    const first = (await app.storage.domains.get(HOST, acme.projectId))!;
    assert.equal(first.state, 'verified', JSON.stringify(first));
  });
  after(async () => {
    await app.close();
    await zone.close();
  });

  it('a name another project holds → added as a claim for this project, with a TXT ownership record besides the CNAME; no word of the holder', async () => {
    const added = await postForm(app, zoo, zooUrl, { hostname: HOST });
    assert.equal(added.status, 303);
    assert.equal(added.headers.location, `${zooUrl}?done=added&domain=${HOST}`);
    const shown = await page(app, zoo, added.headers.location!);
    const claim = (await app.storage.domains.get(HOST, zoo.projectId))!;
    assert.equal(claim.proofTxt, true);
    assert.notEqual(claim.state, 'verified');
    assert.match(shown, new RegExp(`id="record-0-0">${ZOO}<`));
    assert.match(shown, new RegExp(`id="record-0-1">petstore-verify=${claim.token}<`));
    assert.match(shown, /id="record-0-1-name">_petstore\.docs<\/output/);
    // Whole words only: the page's random tokens may hold "409" or "acme" among their characters.
    const holder = /\bacme\b|already used|\b409\b/i;
    assert.doesNotMatch(
      shown,
      holder,
      `the holder is never named: ${shown.match(new RegExp(`.{0,300}(${holder.source}).{0,100}`, 'is'))?.[0]}`,
    );
    assert.match(shown, /another project of this service/, 'what DNS shows is said without naming it');
    assert.equal((await visit(app, HOST)).status, 200, "the holder's site is still served");
    assert.equal((await app.storage.domains.get(HOST))!.projectId, acme.projectId);
  });

  it('the TXT record alone, or the CNAME alone → not moved', async () => {
    const claim = (await app.storage.domains.get(HOST, zoo.projectId))!;
    zone.set(`_petstore.${HOST}`, [{ type: 'TXT', value: `petstore-verify=${claim.token}` }]);
    app.clock.advance(CHECK_INTERVAL_MS);
    await postForm(app, zoo, `${zooUrl}/${HOST}/check`);
    assert.notEqual((await app.storage.domains.get(HOST, zoo.projectId))!.state, 'verified');
    zone.set(`_petstore.${HOST}`, []);
    zone.set(HOST, [{ type: 'CNAME', value: ZOO }]);
    app.clock.advance(CHECK_INTERVAL_MS);
    await postForm(app, zoo, `${zooUrl}/${HOST}/check`);
    const cnameOnly = (await app.storage.domains.get(HOST, zoo.projectId))!;
    assert.equal(cnameOnly.state, 'failed');
    assert.match(cnameOnly.reason!, /TXT record _petstore\.docs\.example\.test is missing/);
    assert.equal((await app.storage.domains.get(HOST))!.projectId, acme.projectId, 'still the holder’s');
  });

  it('TXT and CNAME to this project seen → the name moves: served for the claimant, the holder’s claim ends and its card says why', async () => {
    const claim = (await app.storage.domains.get(HOST, zoo.projectId))!;
    zone.set(`_petstore.${HOST}`, [{ type: 'TXT', value: `petstore-verify=${claim.token}` }]);
    app.clock.advance(CHECK_INTERVAL_MS);
    const checked = await postForm(app, zoo, `${zooUrl}/${HOST}/check`);
    assert.match(checked.headers.location!, /done=checked&/);
    assert.equal((await app.storage.domains.get(HOST, zoo.projectId))!.state, 'verified');
    const served = await app.storage.domains.get(HOST);
    assert.equal(served!.projectId, zoo.projectId);
    const site = await visit(app, HOST);
    assert.equal(site.status, 200);
    assert.match(site.body, /Project zoo/);
    const ended = (await app.storage.domains.get(HOST, acme.projectId))!;
    assert.equal(ended.state, 'failed');
    assert.equal(ended.primary, false);
    assert.equal(await app.storage.domains.primaryOf(acme.projectId), undefined);
    assert.equal((await visit(app, ACME)).status, 200, 'the holder’s default host serves again, no 301');
    const card = await page(app, acme, acmeUrl);
    assert.match(card, /Needs attention/);
    assert.match(
      card,
      /Another project proved control of docs\.example\.test at .* UTC \(its TXT ownership record and CNAME were seen\), so this project no longer serves it/,
    );
    assert.doesNotMatch(card, /zoo/i, 'the new holder is not named either');
    assert.match(
      card,
      /id="record-0-1-name">_petstore\.docs<\/output/,
      'to take it back, a TXT record of its own',
    );
  });

  it('a failed claim is released 7 days after failing; the name is free for the project again', async () => {
    const ended = (await app.storage.domains.get(HOST, acme.projectId))!;
    app.clock.set(ended.failedAt! + RELEASE_FAILED_AFTER_MS - 1);
    await (await app.app.domains.service()).checkDue(100);
    assert.ok(await app.storage.domains.get(HOST, acme.projectId), 'kept until the 7 days are over');
    app.clock.set(ended.failedAt! + RELEASE_FAILED_AFTER_MS);
    await (await app.app.domains.service()).checkDue(100);
    assert.equal(await app.storage.domains.get(HOST, acme.projectId), undefined);
    assert.equal((await app.storage.domains.get(HOST))!.projectId, zoo.projectId, 'the served claim stays');
  });

  it('a pending claim fails 48 hours after it was added', async () => {
    const project = (await app.storage.projects.bySlug('acme'))!;
    const added = await (await app.app.domains.service()).add(OPERATOR, project.slug, 'later.example.test');
    assert.equal(added.ok, true);
    const domain = (await app.storage.domains.get('later.example.test', project.id))!;
    app.clock.set(domain.createdAt + VERIFY_WINDOW_MS);
    await (await app.app.domains.service()).checkDue(100);
    const failed = (await app.storage.domains.get('later.example.test', project.id))!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.failedAt, app.clock.now());
  });

  it('a label mixing scripts (Cyrillic а in аpple) → refused with the reason, nothing stored', async () => {
    const project = (await app.storage.projects.bySlug('acme'))!;
    const refused = await (await app.app.domains.service()).add(OPERATOR, project.slug, 'аpple.example.test');
    assert.deepEqual(refused, {
      ok: false,
      problem: {
        code: 'invalid_body',
        message:
          'the label аpple mixes Cyrillic and Latin letters, which can imitate another name: write each label in one script',
        param: 'hostname',
      },
    });
    acme = await app.signedInMember('acme'); // days later: a new sign-in
    assert.equal((await postForm(app, acme, acmeUrl, { hostname: 'gοogle.example.test' })).status, 303);
    assert.match(await page(app, acme, acmeUrl), /The label gοogle mixes Latin and Greek letters/);
    assert.equal(
      (await app.storage.domains.listForProject(project.id)).some((d) => d.hostname.startsWith('xn--')),
      false,
    );
    const japanese = await (
      await app.app.domains.service()
    ).add(OPERATOR, project.slug, '日本語テキスト.example.test');
    assert.equal(japanese.ok, true, 'Han with Katakana is one writing system');
  });

  it('"Check now" at most once per domain every 10 s → rate_limited with when to try again; the page says so', async () => {
    const project = (await app.storage.projects.bySlug('zoo'))!;
    app.clock.advance(CHECK_INTERVAL_MS);
    assert.equal((await (await app.app.domains.service()).check(OPERATOR, project.slug, HOST)).ok, true);
    app.clock.advance(CHECK_INTERVAL_MS - 1_000);
    const refused = await (await app.app.domains.service()).check(OPERATOR, project.slug, HOST);
    assert.deepEqual(refused, {
      ok: false,
      problem: {
        code: 'rate_limited',
        message: `one check per domain every 10 seconds: try ${HOST} again in 1 s`,
        retryAfterSeconds: 1,
      },
    });
    zoo = await app.signedInMember('zoo');
    assert.equal((await postForm(app, zoo, `${zooUrl}/${HOST}/check`)).status, 303);
    assert.match(
      await page(app, zoo, zooUrl),
      /One check per domain every 10 seconds: try docs\.example\.test again in 1 s/,
    );
    app.clock.advance(1_000);
    assert.equal((await (await app.app.domains.service()).check(OPERATOR, project.slug, HOST)).ok, true);
  });

  it(`adds: at most ${ADDS_PER_HOUR} per project per hour → rate_limited; domains capped by plan (Pro 10, Business 50, Enterprise as configured) → domain_limit_reached`, async () => {
    const service = (enterpriseDomains?: number) =>
      createDomainsService({
        storage: app.storage,
        clock: app.clock,
        resolver: createDnsResolver([zone.address], { timeoutMs: 200 }),
        siteDomain: 'sites.localhost',
        caIdentity: 'letsencrypt.org',
        enterpriseDomains,
      });
    const owner = await app.signedInMember('caps', { plan: 'pro' });
    const project = (await app.storage.projects.byId(owner.projectId))!;
    const domains = service();
    for (let i = 0; i < 10; i++)
      assert.equal((await domains.add(OPERATOR, project.slug, `d${i}.caps.test`)).ok, true);
    const capped = await domains.add(OPERATOR, project.slug, 'd10.caps.test');
    assert.deepEqual(capped, {
      ok: false,
      problem: {
        code: 'domain_limit_reached',
        message: 'the Pro plan allows 10 custom domains per project; remove one first',
        param: 'hostname',
      },
    });
    await app.storage.projects.setPlan(project.slug, 'business', null, null);
    for (let i = 10; i < 30; i++)
      assert.equal((await domains.add(OPERATOR, project.slug, `d${i}.caps.test`)).ok, true, `d${i}`);
    const limited = await domains.add(OPERATOR, project.slug, 'd30.caps.test');
    assert.equal(!limited.ok && limited.problem.code, 'rate_limited');
    assert.match(
      (limited as { problem: { message: string } }).problem.message,
      /at most 30 domains can be added per project per hour/,
    );
    app.clock.advance(60 * 60_000);
    for (let i = 30; i < 50; i++)
      assert.equal((await domains.add(OPERATOR, project.slug, `d${i}.caps.test`)).ok, true);
    const business = await domains.add(OPERATOR, project.slug, 'd50.caps.test');
    assert.equal(!business.ok && business.problem.code, 'domain_limit_reached');
    await app.storage.projects.setPlan(project.slug, 'enterprise', null, null);
    const enterprise = await service(51).add(OPERATOR, project.slug, 'd50.caps.test');
    assert.equal(enterprise.ok, true);
    const full = await service(51).add(OPERATOR, project.slug, 'd51.caps.test');
    assert.equal(!full.ok && full.problem.code, 'domain_limit_reached');
    assert.match(
      (full as { problem: { message: string } }).problem.message,
      /the Enterprise plan allows 51 custom domains/,
    );
  });
});
