import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { binaryString } from './text-arbitraries.ts';
import {
  ALLOWED_REQUEST_HEADERS,
  ANY_ORIGIN,
  type CorsPolicy,
  EXPOSED_HEADERS,
  exactOrigins,
  isSerializedOrigin,
  PREFLIGHT_MAX_AGE_SECONDS,
} from '../src/http/cors.ts';
import { allowedMethods, NON_CONTRACT_ROUTES, type RouteSpec } from '../src/routes/table.ts';
import {
  concretePath,
  makeTestApp,
  type RequestOptions,
  type TestApp,
  type TestResponse,
} from './harness.ts';
import { assertPreflightResponse, assertUnknownRouteResponse } from './openapi-validator.ts';

const ALLOWED = 'https://app.example.com';
const ALSO_ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example';

const accessControl = (response: TestResponse) =>
  Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));

function assertVaryOrigin(response: TestResponse, where: string): void {
  assert.match(String(response.headers.vary), /^(.+, )?Origin(, .+)?$/, `Vary on ${where}`);
}

function assertGranted(response: TestResponse, origin: string, where: string): void {
  assert.equal(response.headers['access-control-allow-origin'], origin, where);
  assert.equal(response.headers['access-control-expose-headers'], EXPOSED_HEADERS, where);
  assert.equal(response.headers['access-control-allow-credentials'], undefined, where);
  assertVaryOrigin(response, where);
}

function assertNotGranted(response: TestResponse, where: string): void {
  assert.deepEqual(accessControl(response), [], where);
  assertVaryOrigin(response, where);
}

async function open(cors: CorsPolicy): Promise<TestApp> {
  const app = await makeTestApp({ cors });
  await app.request({ method: 'POST', url: '/v1/pets', body: { name: 'Rex', categoryId: 1 } });
  return app;
}

const pet = { name: 'Rex', categoryId: 1 };

// Success and error answers of API operations, public endpoints and unknown routes; `unknown` ones are
// no operation of the contract and are checked as 404/405 answers instead.
const CASES: [number, RequestOptions & { unknown?: boolean }][] = [
  [200, { url: '/v1/pets' }],
  [200, { url: '/v1/pets/1' }],
  [201, { method: 'POST', url: '/v1/pets', body: pet }],
  [400, { url: '/v1/pets?limit=0' }],
  [401, { url: '/v1/pets', key: null }],
  [404, { url: '/v1/pets/999' }],
  [404, { url: '/v1/categories', unknown: true }],
  [405, { method: 'DELETE', url: '/v1/pets', unknown: true }],
  [
    413,
    { method: 'POST', url: '/v1/pets', body: JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }) },
  ],
  [415, { method: 'POST', url: '/v1/pets', headers: { 'content-type': 'text/plain' }, body: 'Rex' }],
  [501, { url: '/v1/store/orders' }],
  [200, { url: '/healthz', key: null }],
  [200, { url: '/readyz', key: null }],
  [200, { url: '/metrics', key: null }],
  [200, { url: '/docs', key: null }],
  [200, { url: '/v1/openapi.json', key: null }],
  [404, { url: '/nope', key: null, unknown: true }],
];

describe('CORS on every response', () => {
  let app: TestApp;
  before(async () => {
    app = await open(exactOrigins([ALLOWED, ALSO_ALLOWED]));
  });
  after(() => app.close());

  async function send(status: number, request: RequestOptions & { unknown?: boolean }, origin?: string) {
    app.clock.advance(60_000);
    const headers = { ...request.headers, ...(origin === undefined ? {} : { origin }) };
    const response = await app.request({ ...request, headers, unchecked: request.unknown });
    const where = `${request.method ?? 'GET'} ${request.url} from ${origin ?? 'no origin'}`;
    assert.equal(response.status, status, `${where}: ${response.body.slice(0, 200)}`);
    if (request.unknown)
      assertUnknownRouteResponse({ method: request.method ?? 'GET', path: request.url, ...response });
    return { response, where };
  }

  it('any status → Access-Control-Allow-Origin, Expose-Headers and Vary: Origin for an allowed Origin, never credentials', async () => {
    for (const [status, request] of CASES) {
      for (const origin of [ALLOWED, ALSO_ALLOWED]) {
        const { response, where } = await send(status, request, origin);
        assertGranted(response, origin, where);
      }
    }
  });

  it('any status → no Access-Control-* header for another Origin, only Vary: Origin', async () => {
    for (const [status, request] of CASES) {
      for (const origin of [OTHER, `${ALLOWED}/`, 'null', 'HTTPS://APP.EXAMPLE.COM', `${ALLOWED}:443`]) {
        const { response, where } = await send(status, request, origin);
        assertNotGranted(response, where);
      }
    }
  });

  it('any status → no Access-Control-* header without an Origin, only Vary: Origin', async () => {
    for (const [status, request] of CASES) {
      const { response, where } = await send(status, request);
      assertNotGranted(response, where);
    }
  });

  it('GET /v1/pets → 429 rate_limited still carries the CORS headers of an allowed Origin', async () => {
    const { secret } = await app.createKey('free');
    app.clock.advance(60_000);
    let response: TestResponse | undefined;
    for (let i = 0; i < 61; i++) {
      response = await app.request({ url: '/v1/pets', key: secret, headers: { origin: ALLOWED } });
    }
    assert.equal(response!.status, 429);
    assertGranted(response!, ALLOWED, 'the 61st request of a free key');
  });

  it('GET /docs → Vary names both Origin and Accept-Encoding', async () => {
    const response = await app.request({ url: '/docs', key: null, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(response.headers.vary, 'Origin, Accept-Encoding');
  });
});

describe('OPTIONS preflight on every path of the route table', () => {
  let app: TestApp;
  before(async () => {
    app = await open(exactOrigins([ALLOWED]));
  });
  after(() => app.close());

  // The API host's paths: pages (dashboard, docs sites) are navigated to and send no CORS headers, and
  // the internal listener's route is never reached by a browser.
  const paths = () =>
    Map.groupBy(
      app.app.routeTable.filter((route) => !route.config.htmlErrors && route.config.host !== 'internal'),
      (route) => route.url,
    ) as Map<string, RouteSpec[]>;

  const preflight = async (url: string, headers: Record<string, string>): Promise<TestResponse> => {
    const response = await app.request({ method: 'OPTIONS', url, key: null, headers, unchecked: true });
    // Only the contract's paths are described by the contract.
    if (NON_CONTRACT_ROUTES.every((route) => concretePath(route.url) !== url))
      assertPreflightResponse({ method: 'OPTIONS', path: url, ...response });
    return response;
  };

  it('OPTIONS → 204 without a key, with Allow and the granted methods and headers for an allowed Origin', async () => {
    for (const [url, routes] of paths()) {
      const path = concretePath(url);
      const allow = allowedMethods(routes).join(', ');
      const response = await preflight(path, {
        origin: ALLOWED,
        'access-control-request-method': routes[0]!.method,
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      });
      assert.equal(response.status, 204, path);
      assert.equal(response.body, '', path);
      assert.equal(response.headers.allow, allow, path);
      assert.equal(response.headers['access-control-allow-origin'], ALLOWED, path);
      assert.equal(response.headers['access-control-allow-methods'], allow, path);
      assert.equal(response.headers['access-control-allow-headers'], ALLOWED_REQUEST_HEADERS, path);
      assert.equal(response.headers['access-control-max-age'], String(PREFLIGHT_MAX_AGE_SECONDS), path);
      assert.equal(response.headers['access-control-allow-credentials'], undefined, path);
      assert.equal(response.headers['www-authenticate'], undefined, path);
      assert.equal(response.headers['x-ratelimit-limit'], undefined, `${path}: preflights are not counted`);
      assertVaryOrigin(response, path);
    }
  });

  it('OPTIONS → 204 with Allow and no Access-Control-* header for another Origin or none', async () => {
    for (const [url, routes] of paths()) {
      const path = concretePath(url);
      const asked: Record<string, string>[] = [{ origin: OTHER, 'access-control-request-method': 'GET' }, {}];
      for (const headers of asked) {
        const response = await preflight(path, headers);
        assert.equal(response.status, 204, path);
        assert.equal(response.headers.allow, allowedMethods(routes).join(', '), path);
        assertNotGranted(response, `${path} ${JSON.stringify(headers)}`);
      }
    }
  });

  it('OPTIONS → counts against no budget: a client address keeps its whole quota after 200 preflights', async () => {
    app.clock.advance(60_000);
    for (let i = 0; i < 200; i++) {
      const response = await preflight(i % 2 ? '/v1/pets' : '/healthz', { origin: ALLOWED });
      assert.equal(response.status, 204);
    }
    const api = await app.request({ url: '/v1/pets', key: null });
    assert.equal(api.status, 401);
    assert.equal(api.headers['x-ratelimit-remaining'], '59');
    const health = await app.request({ url: '/healthz', key: null });
    assert.equal(health.headers['x-ratelimit-remaining'], '5999');
  });

  it('OPTIONS /v1/categories → 401 without a key: a path outside the table gets no preflight answer', async () => {
    const response = await app.request({
      method: 'OPTIONS',
      url: '/v1/categories',
      key: null,
      headers: { origin: ALLOWED },
      unchecked: true,
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers['access-control-allow-methods'], undefined);
  });
});

/**
 * The origin of a web URL: fc.webUrl's scheme and authority, without the path it would draw (only to
 * be dropped, and its arbitrary alone takes over a second to build).
 */
const webOrigin = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.webAuthority({ withIPv4: true, withIPv6: true, withPort: true }),
  )
  .map(([scheme, authority]) => new URL(`${scheme}://${authority}`).origin);

/** Origins near the allowed ones, malformed ones, and arbitrary text. */
const originLike = fc.oneof(
  fc.constantFrom(
    ALLOWED,
    `${ALLOWED}/`,
    `${ALLOWED}:443`,
    `${ALLOWED}:8443`,
    'http://app.example.com',
    'https://APP.example.com',
    'https://app.example.com.evil.example',
    'https://evil.app.example.com',
    'https://user@app.example.com',
    `${ALLOWED}/path`,
    `${ALLOWED}?q`,
    ` ${ALLOWED}`,
    `${ALLOWED} `,
    `${ALLOWED}, ${OTHER}`,
    'null',
    '*',
    'file://',
    'ftp://app.example.com',
  ),
  webOrigin,
  fc.string({ maxLength: 120 }),
  binaryString({ maxLength: 120 }),
);

describe('generated Origin values', () => {
  let exact: TestApp;
  let any: TestApp;
  before(async () => {
    exact = await open(exactOrigins([ALLOWED]));
    any = await open(ANY_ORIGIN);
  });
  after(async () => {
    await exact.close();
    await any.close();
  });

  const send = (app: TestApp, method: string, url: string, origin: string) =>
    app.app.inject({ method: method as 'GET', url, headers: { origin } });

  const requests = fc.record({
    origin: originLike,
    method: fc.constantFrom('GET', 'OPTIONS', 'POST'),
    url: fc.constantFrom('/v1/pets', '/v1/pets/1', '/healthz', '/docs', '/v1/nope', '/nope'),
  });

  it('an exact policy never echoes an Origin other than the one allowed', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async ({ origin, method, url }) => {
        exact.clock.advance(61_000);
        const response = await send(exact, method, url, origin);
        const granted = response.headers['access-control-allow-origin'];
        assert.equal(granted, origin === ALLOWED ? ALLOWED : undefined, `${method} ${url} ${origin}`);
        assert.equal(response.headers['access-control-allow-credentials'], undefined);
        assert.ok(response.statusCode < 500, `${method} ${url}: ${response.statusCode}`);
      }),
      { numRuns: 400 },
    );
  });

  it('the * policy echoes exactly the well-formed origins, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async ({ origin, method, url }) => {
        any.clock.advance(61_000);
        const response = await send(any, method, url, origin);
        const granted = response.headers['access-control-allow-origin'];
        assert.equal(granted, isSerializedOrigin(origin) ? origin : undefined, `${method} ${url} ${origin}`);
        assert.equal(response.headers['access-control-allow-credentials'], undefined);
      }),
      { numRuns: 400 },
    );
  });

  it('GET /healthz → every echoed origin matches the contract’s Access-Control-Allow-Origin', async () => {
    await fc.assert(
      fc.asyncProperty(webOrigin, async (origin) => {
        const response = await any.request({ url: '/healthz', key: null, headers: { origin } });
        assert.equal(response.headers['access-control-allow-origin'], origin);
      }),
      { numRuns: 200 },
    );
  });
});
