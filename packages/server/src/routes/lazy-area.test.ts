import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandler } from '../http/error-handler.ts';
import { hostKindConstraint } from '../http/host-kind.ts';
import { type RouteConfig, matchRoute, routeConfig } from '../http/route-config.ts';
import { createAreaRouter } from './area-router.ts';
import { lazyArea } from './lazy-area.ts';
import type { RouteDefinition } from './table.ts';

const page = (operationId: string): RouteConfig => ({
  operationId,
  access: 'public',
  rateLimited: false,
  metricsLabel: 'other',
});
const NOT_FOUND = page('notFound');
let handled = 0;

const ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    url: '/area/things/:id',
    config: page('getThing'),
    // What the handler sees: the route the guard's first step found, and the area's own parameters.
    handler: async (request) => {
      handled++;
      return { route: routeConfig(request).operationId, params: request.params };
    },
  },
  { method: 'POST', url: '/area/things', config: page('addThing'), handler: async () => 'added' },
];

/**
 * A bare application with an area registered on its first request, and the guard's first step
 * (matchRoute) as its only hook; `failures` imports fail before one succeeds.
 */
function appWithArea(failures = 0): { app: FastifyInstance; loads: () => number } {
  let loads = 0;
  const hosts = { names: { siteDomain: 'sites.localhost', apiHosts: [] } };
  const app = Fastify({ routerOptions: { constraints: { hostKind: hostKindConstraint(hosts) } } });
  app.decorateRequest('route', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const found = matchRoute(request);
    if (found instanceof Promise) found.then(() => done(), done);
    else done();
  });
  installErrorHandler(app);
  const area = lazyArea({
    prefixes: ['/area/*'],
    config: page('area'),
    async load() {
      loads++;
      await new Promise((resolve) => setImmediate(resolve));
      if (loads <= failures) throw new Error('the area’s module could not be imported');
      return createAreaRouter(ROUTES, { hosts, maxParamLength: 100, notFound: NOT_FOUND });
    },
  });
  app.register((scope, _options, done) => {
    area.register(scope);
    done();
  });
  return { app, loads: () => loads };
}

describe('an area registered on its first request (lazyArea)', () => {
  it('GET /area/things/7 → 200 from the area’s route, its config and parameters set before the handler', async () => {
    const { app, loads } = appWithArea();
    assert.equal(loads(), 0, 'nothing is imported before the first request');
    const response = await app.inject({ url: '/area/things/7' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { route: 'getThing', params: { id: '7' } });
    await app.inject({ url: '/area/things/8' });
    assert.equal(loads(), 1);
  });

  it('concurrent first requests → one import, each request its own route', async () => {
    const { app, loads } = appWithArea();
    const [get, post] = await Promise.all([
      app.inject({ url: '/area/things/1' }),
      app.inject({ method: 'POST', url: '/area/things' }),
    ]);
    assert.deepEqual([get.statusCode, post.body], [200, 'added']);
    assert.equal(loads(), 1);
  });

  it('an import that fails → 500 internal_error, no handler run, and the next request imports again', async () => {
    const { app, loads } = appWithArea(1);
    const before = handled;
    const failed = await app.inject({ url: '/area/things/7' });
    assert.equal(failed.statusCode, 500);
    assert.equal(failed.json().code, 'internal_error');
    assert.equal(handled, before);
    const next = await app.inject({ url: '/area/things/7' });
    assert.equal(next.statusCode, 200);
    assert.equal(loads(), 2);
  });

  it('OPTIONS → 204 with Allow; PUT on a known path → 405 with Allow; an unknown path → the 404 route', async () => {
    const { app } = appWithArea();
    const options = await app.inject({ method: 'OPTIONS', url: '/area/things/7' });
    assert.equal(options.statusCode, 204);
    assert.equal(options.headers.allow, 'GET, HEAD, OPTIONS');
    const put = await app.inject({ method: 'PUT', url: '/area/things/7', payload: 'x' });
    assert.equal(put.statusCode, 405);
    assert.equal(put.headers.allow, 'GET, HEAD, OPTIONS');
    const missing = await app.inject({ url: '/area/elsewhere' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
  });

  it('HEAD → the GET route’s length, no body; an unknown path with a body not JSON → 404 before it is read', async () => {
    const { app } = appWithArea();
    const get = await app.inject({ url: '/area/things/7' });
    const head = await app.inject({ method: 'HEAD', url: '/area/things/7' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], String(get.rawPayload.length));
    assert.equal(head.body, '');
    const posted = await app.inject({
      method: 'POST',
      url: '/area/elsewhere',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    assert.equal(posted.statusCode, 404);
  });
});
