import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { verifiedDomain } from './dashboard-forms.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const postgres = await service('postgres');
const skip = 'skip' in postgres ? postgres.skip : undefined;

/**
 * A host lookup that PostgreSQL does not answer (the domains table locked by another session): past the
 * statement timeout the request is answered 503, never a 404 or the API as if nothing were there; the
 * failure is logged, counted, and readiness reports it until lookups work again.
 */
describe('host lookup past the statement timeout (postgres)', { skip }, () => {
  let app: TestApp;
  let admin: pg.Client;
  let cleanup: () => Promise<void> = async () => {};
  const logLines: string[] = [];
  let schema = '';

  before(async () => {
    if (skip) return;
    const url = (postgres as { url: string }).url;
    const shared = await sharedStorage(url, 'petstore-lookup-');
    cleanup = shared.cleanup;
    app = await makeTestApp({ storage: await shared.open(), logLines, logLevel: 'warn' });
    await app.signedInMember('acme', { plan: 'pro' });
    await app.storage.domains.add(verifiedDomain('docs.acme.test', 'prj_acme', app.clock.now()));
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    schema = String((await app.storage.sql.all('SELECT current_schema() AS s'))[0]!.s);
  });
  after(async () => {
    if (skip) return;
    await admin.end();
    await app.close();
    await cleanup();
  });

  it('GET / on a name not cached while custom_domains is locked → 503, logged, counted; /readyz 503 until the lock goes', async () => {
    assert.equal(
      (await app.request({ url: '/', key: null, headers: { host: 'docs.acme.test' }, unchecked: true }))
        .status,
      200,
    );
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE ${schema}.custom_domains IN ACCESS EXCLUSIVE MODE`);
    try {
      const failed = await app.request({
        url: '/',
        key: null,
        headers: { host: 'new.example.test' },
        unchecked: true,
      });
      assert.equal(failed.status, 503);
      assert.equal(JSON.parse(failed.body).code, 'service_unavailable');
      assert.ok(
        logLines.some(
          (line) => line.includes('a host could not be looked up') && line.includes('new.example.test'),
        ),
      );
      const metrics = await app.request({ url: '/metrics', key: null });
      assert.match(metrics.body, /^petstore_host_lookup_failures_total [1-9]/m);
      const ready = await app.request({ url: '/readyz', key: null });
      assert.equal(ready.status, 503);
      assert.match(ready.body, /hosts could not be looked up/);
    } finally {
      await admin.query('ROLLBACK');
    }
    const ready = await app.request({ url: '/readyz', key: null });
    assert.equal(ready.status, 200);
    assert.equal(
      (await app.request({ url: '/docs', key: null, headers: { host: 'new.example.test' }, unchecked: true }))
        .status,
      200,
      'looked up once the table answers: a name never claimed is the API',
    );
  });
});
