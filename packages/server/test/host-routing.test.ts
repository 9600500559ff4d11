import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { StorageUnavailableError } from '../src/storage/errors.ts';
import { verifiedDomain } from './dashboard-forms.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const visit = (app: TestApp, host: string, url = '/', key: string | null = null) =>
  app.request({ url, key, headers: { host }, unchecked: true });

/** Hosts resolved by lookup, cached, and followed by the change feed (features/domains/sites/host-directory.ts). */
describe('host routing by lookup: nothing read for every tenant, a failed lookup never routes nothing', () => {
  let app: TestApp;
  const bulkReads: string[] = [];
  before(async () => {
    app = await makeTestApp({ changePollMs: 3_600_000 });
    const { projects, domains } = app.storage;
    // Reading every project or every served domain is what routing must never do.
    projects.list = async () => {
      bulkReads.push('projects.list');
      return [];
    };
    domains.listServed = async () => {
      bulkReads.push('domains.listServed');
      return [];
    };
    await app.signedInMember('acme', { plan: 'pro' });
    await domains.add(verifiedDomain('docs.acme.test', 'prj_acme', app.clock.now()));
  });
  after(() => app.close());

  it('a verified domain, a default host, a name never claimed: each answered from one lookup, none from a full read', async () => {
    assert.equal((await visit(app, 'docs.acme.test')).status, 200);
    assert.equal((await visit(app, 'acme.sites.localhost')).status, 301);
    assert.equal(
      (await visit(app, 'unclaimed.example.test', '/docs')).status,
      200,
      'the API with no API host',
    );
    assert.deepEqual(bulkReads, []);
  });

  it('a change written by another door (the storage directly) is served from the next request, however long the timer', async () => {
    await app.storage.domains.remove('prj_acme', 'docs.acme.test', app.clock.now());
    assert.equal((await visit(app, 'docs.acme.test')).status, 404);
    assert.equal((await visit(app, 'docs.acme.test', '/docs')).status, 404, 'removed: not the API either');
    assert.equal((await visit(app, 'acme.sites.localhost')).status, 200, 'no redirect to it');
    await app.storage.domains.add(verifiedDomain('docs.acme.test', 'prj_acme', app.clock.now()));
    assert.equal((await visit(app, 'docs.acme.test')).status, 200);
  });

  it('property: a name that is or was a custom domain, in any state, never reaches the API, the docs or the dashboard', async () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    const state = fc.constantFrom('pending', 'failed', 'verified-free', 'removed');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(label, state, fc.constantFrom('', '.', ':8080'), async (name, kind, tail) => {
        const hostname = `${name}-${n++}.example.test`;
        // A new minute for each case: the client address's budget for unknown paths is not what is tested.
        app.clock.advance(60_000);
        const now = app.clock.now();
        if (kind === 'removed') {
          await app.storage.domains.add(verifiedDomain(hostname, 'prj_acme', now, { primary: false }));
          await app.storage.domains.remove('prj_acme', hostname, now);
        } else if (kind === 'verified-free') {
          await app.signedInMember('cheap', { plan: 'free' });
          await app.storage.domains.add(verifiedDomain(hostname, 'prj_cheap', now, { primary: false }));
        } else {
          const extra = {
            state: kind,
            primary: false,
            verifiedAt: null,
            failedAt: kind === 'failed' ? now : null,
          };
          await app.storage.domains.add(verifiedDomain(hostname, 'prj_acme', now, extra));
        }
        // Spelt as a browser may send it; the WHATWG URL parser makes every spelling one name.
        const host = `${hostname.toUpperCase()}${tail}`;
        assert.equal(new URL(`http://${host}`).hostname.replace(/\.$/, ''), hostname);
        for (const url of ['/v1/pets', '/v1/openapi.json', '/docs', '/dashboard/sign-in']) {
          for (const key of [null, app.key]) {
            const response = await visit(app, host, url, key);
            assert.equal(response.status, 404, `${kind} ${host}${url}`);
          }
        }
      }),
      { numRuns: 15 },
    );
  });

  it('a lookup that fails → 503 (never a 404 that says nothing is there), logged, counted, and /readyz says so', async () => {
    const { domains } = app.storage;
    const get = domains.get.bind(domains);
    domains.get = async () => {
      throw new StorageUnavailableError('database unavailable: injected');
    };
    try {
      const failed = await visit(app, 'new.example.test');
      assert.equal(failed.status, 503);
      const metrics = await app.request({ url: '/metrics', key: null });
      assert.match(metrics.body, /^petstore_host_lookup_failures_total [1-9]/m);
      const ready = await app.request({ url: '/readyz', key: null });
      assert.equal(ready.status, 503);
      assert.match(ready.body, /injected/);
    } finally {
      domains.get = get;
    }
    // Readiness tries the failed lookup again itself: ready once it works, with no request on the name.
    const ready = await app.request({ url: '/readyz', key: null });
    assert.equal(ready.status, 200);
    assert.match(ready.body, /"hostRouting":"ok"/);
    assert.equal(
      (await visit(app, 'new.example.test', '/docs')).status,
      200,
      'the API once the lookup works',
    );
  });
});
