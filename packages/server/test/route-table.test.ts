import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_METHODS, allowedMethods, type RouteDefinition } from '../src/routes/table.ts';
import { concretePath, makeTestApp, type TestApp } from './harness.ts';

// Every route the app registered × every method, with expectations read from the route table alone.
describe('route table × every method', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
    await app.request({ method: 'POST', url: '/v1/pets', body: { name: 'Rex', categoryId: 1 } });
  });
  after(() => app.close());

  const send = (method: string, path: string, key: string | null) =>
    app.request({ method, url: path, key, unchecked: true });

  it('covers every contract operation and the non-contract routes', () => {
    const ids = app.app.routeTable.map((route) => route.config.operationId).sort();
    for (const id of ['listPets', 'createPet', 'getPet', 'listStoreOrders', 'getHealth', 'getDocsAsset']) {
      assert.ok(ids.includes(id), id);
    }
  });

  const groups = () =>
    Map.groupBy(app.app.routeTable, (route) => route.url) as Map<string, RouteDefinition[]>;

  it('a method the path lacks → 405 method_not_allowed with Allow from the table, after the same guard', async () => {
    for (const [url, routes] of groups()) {
      app.clock.advance(60_000); // a fresh minute for the anonymous bucket of this path
      const { access, rateLimited } = routes[0]!.config;
      const allow = allowedMethods(routes);
      for (const method of ALL_METHODS.filter((m) => !allow.includes(m))) {
        const where = `${method} ${url}`;
        const keyed = await send(method, concretePath(url), app.key);
        assert.equal(keyed.status, 405, where);
        assert.equal(keyed.headers.allow, allow.join(', '), where);
        assert.equal(keyed.headers['x-ratelimit-limit'] !== undefined, rateLimited, where);
        if (method !== 'HEAD')
          assert.equal((keyed.json() as { code: string }).code, 'method_not_allowed', where);
        const anonymous = await send(method, concretePath(url), null);
        assert.equal(anonymous.status, access === 'apiKey' ? 401 : 405, where);
      }
    }
  });

  it('a method the path has → 401 without a key on apiKey routes, never on public ones; limits as configured', async () => {
    for (const route of app.app.routeTable) {
      app.clock.advance(60_000);
      const where = `${route.method} ${route.url}`;
      const anonymous = await send(route.method, concretePath(route.url), null);
      if (route.config.access === 'apiKey') {
        assert.equal(anonymous.status, 401, where);
        assert.equal(anonymous.headers['www-authenticate'], 'Bearer', where);
      } else {
        assert.notEqual(anonymous.status, 401, where);
      }
      assert.equal(anonymous.headers['x-ratelimit-limit'] !== undefined, route.config.rateLimited, where);
      assert.equal(
        anonymous.headers.deprecation !== undefined,
        route.config.deprecation !== undefined,
        where,
      );
      assert.ok(anonymous.status < 500, where);
    }
  });
});
