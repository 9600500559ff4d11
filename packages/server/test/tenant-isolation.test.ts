import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDnsResolver } from '../src/features/domains/dns.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { TEST_CHANGE_POLL_MS } from './eventually.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import { postForm, verifiedDomain } from './dashboard-forms.ts';

const IP_SPELLINGS = [
  '0x7f.1',
  '127.1',
  '2130706433',
  '0',
  '127。0。0。1',
  '0177.0.0.1',
  '[::1]',
  '127.0.0.1',
];
const domainsUrl = '/dashboard/projects/acme/domains';

const visit = (app: TestApp, host: string, url: string, key?: string) =>
  app.request({ url, key: key ?? null, unchecked: true, headers: { host } });

/** The service's own pages on one host: each answers as the API host does, never a 404. */
async function ownPagesAnswer(app: TestApp, host: string, key: string): Promise<void> {
  for (const [url, status] of [
    ['/healthz', 200],
    ['/readyz', 200],
    ['/metrics', 200],
    ['/v1/pets', 200],
    ['/docs', 200],
    ['/dashboard/sign-in', 200],
  ] as const) {
    const response = await visit(app, host, url, url === '/v1/pets' ? key : undefined);
    assert.equal(
      response.status,
      status,
      `${host}${url} → ${response.status} ${response.body.slice(0, 120)}`,
    );
  }
}

/** A customer's name (in any state): none of the service's API, docs or dashboard, with or without a key. */
async function noServicePages(app: TestApp, host: string, key: string, state: string): Promise<void> {
  for (const url of [
    '/v1/pets',
    '/v1/pets/1',
    '/v1/openapi.json',
    '/openapi.json',
    '/docs',
    '/dashboard/sign-in',
  ]) {
    for (const withKey of [undefined, key]) {
      const response = await visit(app, host, url, withKey);
      assert.equal(response.status, 404, `${state}: ${host}${url} → ${response.status}`);
      assert.doesNotMatch(response.body, /Sign in|"openapi"|"data"/, `${state}: ${host}${url}`);
    }
  }
}

for (const backend of ['sqlite', 'postgres'] as const) {
  for (const apiHost of [undefined, 'api.example.test']) {
    const mode = apiHost ? `PETSTORE_API_HOST=${apiHost}` : 'no PETSTORE_API_HOST';
    describe(`tenant isolation on ${backend}, ${mode}: nothing a tenant adds moves the service's own names`, async () => {
      const postgres = backend === 'postgres' ? await service('postgres') : undefined;
      const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
      const ownHosts = ['127.0.0.1', 'localhost', '[::1]', ...(apiHost ? [apiHost] : [])];
      let zone: ZoneServer;
      let app: TestApp;
      let owner: SignedIn;
      let key: string;
      let cleanup: () => Promise<void> = async () => {};

      before(async () => {
        if (skip) return;
        zone = await startZoneServer();
        zone.set('acme.sites.localhost', [{ type: 'A', value: '198.51.100.7' }]);
        const shared = await sharedStorage(
          postgres && 'url' in postgres ? postgres.url : undefined,
          'petstore-iso-',
        );
        cleanup = shared.cleanup;
        app = await makeTestApp({
          storage: await shared.open(),
          dns: createDnsResolver([zone.address]),
          hosts: { siteDomain: 'sites.localhost', apiHost },
          changePollMs: TEST_CHANGE_POLL_MS,
        });
        owner = await app.signedInMember('acme', { plan: 'pro' });
        key = app.key;
      });
      after(async () => {
        if (skip) return;
        await app.close();
        await zone.close();
        await cleanup();
      });

      it(
        'before anything is added: health, API, docs and dashboard answer on loopback, IP and API hosts',
        { skip },
        async () => {
          for (const host of ownHosts) await ownPagesAnswer(app, host, key);
        },
      );

      it(
        'every spelling of an IP address, localhost and the service own names → refused with the reason, nothing stored',
        { skip },
        async () => {
          const own = [
            'localhost',
            'app.localhost',
            'sites.localhost',
            'x.sites.localhost',
            ...(apiHost ? [apiHost] : []),
          ];
          for (const hostname of [...IP_SPELLINGS, ...own]) {
            const response = await postForm(app, owner, domainsUrl, { hostname });
            assert.equal(response.status, 303, hostname);
            const shown = await app.request({
              url: domainsUrl,
              key: null,
              unchecked: true,
              headers: { cookie: owner.cookie },
            });
            assert.match(shown.body, /id="domain-problem"/, hostname);
          }
          assert.deepEqual(await app.storage.domains.listForProject('prj_acme'), []);
        },
      );

      it(
        'a name stored as an IP address by an older version, even verified, routes nothing: own pages still answer',
        { skip },
        async () => {
          const now = app.clock.now();
          for (const hostname of ['127.0.0.1', ...(apiHost ? [apiHost] : [])]) {
            const stored = await app.storage.domains.add(
              verifiedDomain(hostname, 'prj_acme', now, { primary: false }),
            );
            assert.ok(stored, hostname);
          }
          for (const host of ownHosts) await ownPagesAnswer(app, host, key);
          for (const hostname of ['127.0.0.1', ...(apiHost ? [apiHost] : [])]) {
            await app.storage.domains.remove('prj_acme', hostname, now);
          }
        },
      );

      it(
        'a name once added, in any state (pending, verified, suspended, removed), never shows the service own pages; verified on Pro → its site',
        { skip },
        async () => {
          const name = 'docs.example.test';
          const before = (await visit(app, name, '/dashboard/sign-in')).status;
          assert.equal(before, apiHost ? 404 : 200, 'before the name is added');
          assert.equal((await postForm(app, owner, domainsUrl, { hostname: name })).status, 303);
          assert.equal((await app.storage.domains.get(name))?.state, 'pending');
          await noServicePages(app, name, key, 'pending');
          for (const host of ownHosts) await ownPagesAnswer(app, host, key);

          zone.set(name, [{ type: 'CNAME', value: 'acme.sites.localhost' }]);
          assert.equal((await postForm(app, owner, `${domainsUrl}/${name}/check`)).status, 303);
          assert.equal((await app.storage.domains.get(name))?.state, 'verified');
          const site = await visit(app, name, '/');
          assert.equal(site.status, 200);
          assert.match(site.body, /petstore-docs-title/);
          await noServicePages(app, name, key, 'verified');

          await app.storage.projects.setPlan('acme', 'free', null, null);
          assert.equal((await visit(app, name, '/')).status, 404, 'suspended: no site');
          await noServicePages(app, name, key, 'suspended');
          await app.storage.projects.setPlan('acme', 'pro', null, null);

          assert.equal((await postForm(app, owner, `${domainsUrl}/${name}/remove`)).status, 303);
          assert.doesNotMatch(
            (await visit(app, name, '/')).body,
            /petstore-docs-title/,
            'no site from the 303 on',
          );
          await noServicePages(app, name, key, 'removed');
          for (const host of ownHosts) await ownPagesAnswer(app, host, key);
        },
      );
    });
  }
}
