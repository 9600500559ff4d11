import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';

/**
 * The dashboard and the management API are registered on their first request (routes/lazy-area.ts):
 * a built app routes them through one prefix route each, whatever their size, and every route of the
 * table still answers as the table says (test/route-table.test.ts).
 */
describe('areas registered on their first request', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  const routed = (method: 'GET' | 'POST', url: string) =>
    app.app.hasRoute({ method, url, constraints: { hostKind: 'api' } });

  it('a built app → the dashboard under /dashboard and /dashboard/*, the management API under /manage/v1/*, none of their paths', () => {
    assert.equal(routed('GET', '/dashboard'), true);
    assert.equal(routed('GET', '/dashboard/*'), true);
    assert.equal(routed('GET', '/manage/v1/*'), true);
    assert.equal(routed('GET', '/dashboard/projects/:slug/keys'), false);
    assert.equal(routed('POST', '/dashboard/sign-in'), false);
    assert.equal(routed('GET', '/manage/v1/projects'), false);
    assert.equal(routed('GET', '/manage/v1/projects/:slug/keys'), false);
  });

  it('the route table lists their routes all the same, the management API’s from its contract', () => {
    const urls = app.app.routeTable.map((route) => `${route.method} ${route.url}`);
    assert.ok(urls.includes('GET /dashboard/projects/:slug/keys'));
    assert.ok(urls.includes('GET /manage/v1/projects/:slug/keys'));
  });
});
