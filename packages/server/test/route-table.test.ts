import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_METHODS, allowedMethods, type RouteSpec } from '../src/routes/table.ts';
import { concretePath, makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { tokenHolder } from './manage-support.ts';

const SITE_HOST = 'acme.sites.localhost';
const isPage = (method: string) => method === 'GET' || method === 'HEAD';

// Every route the app registered × every method, with expectations read from the route table alone.
describe('route table × every method', () => {
  let app: TestApp;
  let member: SignedIn;
  let token: string;
  before(async () => {
    app = await makeTestApp();
    member = await app.signedInMember('acme');
    token = (await tokenHolder(app, ['acme'])).token;
    await app.request({ method: 'POST', url: '/v1/pets', body: { name: 'Rex', categoryId: 1 } });
  });
  after(() => app.close());

  /** Rate-limit headers: on limited routes, and on the management API's (its token check limits). */
  const limited = (route: RouteSpec) => route.config.rateLimited || route.config.access === 'accessToken';

  /** A request to a route, with what it takes to be let in (key, session, site host) or without it. */
  const send = (method: string, route: RouteSpec, admitted: boolean) => {
    if (route.config.host === 'internal') return app.internal(concretePath(route.url), method);
    const headers: Record<string, string> = {};
    if (route.config.host === 'site') headers.host = SITE_HOST;
    if (admitted && route.config.access === 'session') headers.cookie = member.cookie;
    const key = !admitted
      ? null
      : route.config.access === 'apiKey'
        ? app.key
        : route.config.access === 'accessToken'
          ? token
          : null;
    return app.request({ method, url: concretePath(route.url), key, headers, unchecked: true });
  };

  /** What a request without its credentials gets: 401 for the API, sign-in for dashboard pages. */
  const refusedStatus = (route: RouteSpec, method: string): number | undefined => {
    if (route.config.access === 'apiKey' || route.config.access === 'accessToken') return 401;
    if (route.config.access === 'session') return isPage(method) ? 303 : 401;
    return undefined;
  };

  it('covers every contract operation and the routes outside it', () => {
    const ids = app.app.routeTable.map((route) => route.config.operationId);
    for (const id of [
      'listPets',
      'createPet',
      'getPet',
      'listStoreOrders',
      'getHealth',
      'getDocsAsset',
      'getSiteDocs',
      'keysPage',
    ]) {
      assert.ok(ids.includes(id), id);
    }
  });

  const groups = () =>
    Map.groupBy(app.app.routeTable, (route) => `${route.config.host ?? 'api'} ${route.url}`) as Map<
      string,
      RouteSpec[]
    >;

  it('a method the path lacks → 405 method_not_allowed with Allow from the table, after the same guard', async () => {
    for (const routes of groups().values()) {
      app.clock.advance(60_000); // a fresh minute for the anonymous bucket of this path
      const route = routes[0]!;
      const allow = allowedMethods(routes);
      for (const method of ALL_METHODS.filter((m) => !allow.includes(m))) {
        const where = `${method} ${route.config.host ?? 'api'} ${route.url}`;
        const admitted = await send(method, route, true);
        assert.equal(admitted.status, 405, where);
        assert.equal(admitted.headers.allow, allow.join(', '), where);
        assert.equal(admitted.headers['x-ratelimit-limit'] !== undefined, limited(route), where);
        const refused = await send(method, route, false);
        assert.equal(refused.status, refusedStatus(route, method) ?? 405, where);
      }
    }
  });

  it('a method the path has, without credentials → refused on protected routes, let in on public ones; limits as configured', async () => {
    for (const route of app.app.routeTable) {
      app.clock.advance(60_000);
      const where = `${route.method} ${route.config.host ?? 'api'} ${route.url}`;
      const anonymous = await send(route.method, route, false);
      const refused = refusedStatus(route, route.method);
      if (refused !== undefined) assert.equal(anonymous.status, refused, where);
      else assert.ok(![401, 303].includes(anonymous.status), `${where} → ${anonymous.status}`);
      if (route.config.access === 'apiKey' || route.config.access === 'accessToken')
        assert.equal(anonymous.headers['www-authenticate'], 'Bearer', where);
      assert.equal(anonymous.headers['x-ratelimit-limit'] !== undefined, limited(route), where);
      assert.equal(
        anonymous.headers.deprecation !== undefined,
        route.config.deprecation !== undefined,
        where,
      );
      assert.ok(anonymous.status < 500, where);
    }
  });
});
