import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eventually, TEST_CHANGE_POLL_MS } from './eventually.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { assertErrorAnswer } from './openapi-validator.ts';
import { rawRequest } from './raw-http.ts';
import { verifiedDomain } from './dashboard-forms.ts';

/** Every request of this suite from its own loopback address: its own rate-limit bucket. */
let nextAddress = 20;
const freshAddress = () => `127.0.1.${nextAddress++}`;

describe('the edge on raw sockets: Host, absolute-form targets, redirects and TLS headers', () => {
  let app: TestApp;
  let port: number;
  const send = (lines: string[]) =>
    rawRequest({
      port,
      send: `${lines.join('\r\n')}\r\n\r\n`,
      localAddress: freshAddress(),
      firstResponseOnly: true,
    });

  before(async () => {
    app = await makeTestApp({ trustProxy: true, changePollMs: TEST_CHANGE_POLL_MS });
    await app.signedInMember('acme', { plan: 'pro' });
    const now = app.clock.now();
    await app.storage.domains.add(verifiedDomain('docs.acme.example', 'prj_acme', now));
    // Served once this instance's host sets read the domain (at their next refresh).
    await eventually(
      async () =>
        (await app.request({ url: '/', key: null, unchecked: true, headers: { host: 'docs.acme.example' } }))
          .status === 200,
    );
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.app.server.address() as AddressInfo).port;
  });
  after(() => app.close());

  it('Host with a port out of range, userinfo or a path → 400 invalid_request in the Error shape, with a request id', async () => {
    for (const host of ['x:99999', 'localhost:65536', 'user@localhost', 'localhost/x', 'a:b']) {
      const response = await send(['GET /v1/pets HTTP/1.1', `Host: ${host}`]);
      const body = assertErrorAnswer(response, 400, 'invalid_request') as Record<string, unknown>;
      assert.equal(body.param, 'Host', host);
      assert.ok(response.headers['x-request-id'], host);
    }
  });

  it('absolute-form targets: the path is routed, a bad authority → 400 in the Error shape', async () => {
    const bad = await send(['GET http://x:99999/v1/pets HTTP/1.1', 'Host: localhost']);
    assertErrorAnswer(bad, 400, 'invalid_request');
    assert.ok(bad.headers['x-request-id']);
    const good = await send(['GET http://localhost/healthz HTTP/1.1', 'Host: localhost']);
    assert.equal(good.status, 200, good.body);
  });

  it('absolute-form: its authority is the host (RFC 9112), so a target never puts another host in a Location', async () => {
    const elsewhere = await send(['GET http://evil.test/x?y=1 HTTP/1.1', 'Host: acme.sites.localhost']);
    assert.equal(elsewhere.status, 404);
    assert.equal(elsewhere.headers.location, undefined);
    const here = await send(['GET http://acme.sites.localhost/x?y=1 HTTP/1.1', 'Host: evil.test']);
    assert.equal(here.status, 301);
    assert.equal(here.headers.location, 'http://docs.acme.example/x?y=1');
  });

  it('301 to the primary: the origin-form path and query after the primary, Cache-Control set', async () => {
    const moved = await send(['GET /x?y=1 HTTP/1.1', 'Host: acme.sites.localhost']);
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, 'http://docs.acme.example/x?y=1');
    assert.equal(moved.headers['cache-control'], 'public, max-age=300');
    const slashes = await send(['GET //evil.test/x HTTP/1.1', 'Host: acme.sites.localhost']);
    assert.equal(slashes.status, 301);
    assert.equal(slashes.headers.location, 'http://docs.acme.example//evil.test/x');
  });

  it('X-Forwarded-Proto other than http or https from a trusted proxy → the redirect stays http', async () => {
    for (const proto of ['javascript', 'data', 'HTTPS ', 'ftp']) {
      const response = await send([
        'GET /a HTTP/1.1',
        'Host: acme.sites.localhost',
        `X-Forwarded-Proto: ${proto}`,
      ]);
      assert.equal(response.status, 301, proto);
      assert.match(response.headers.location ?? '', /^https?:\/\/docs\.acme\.example\/a$/, proto);
    }
  });

  it('over TLS (https from the proxy): HSTS on API answers, errors, docs, sites and 301s; never over plain http', async () => {
    const tls = (target: string, host: string, extra: string[] = []) =>
      send([`GET ${target} HTTP/1.1`, `Host: ${host}`, 'X-Forwarded-Proto: https', ...extra]);
    const answers = [
      await tls('/v1/pets', 'localhost', [`Authorization: Bearer ${app.key}`]),
      await tls('/v1/pets', 'localhost'),
      await tls('/docs', 'localhost'),
      await tls('/healthz', 'localhost'),
      await tls('/', 'docs.acme.example'),
      await tls('/', 'acme.sites.localhost'),
      await tls('/nothing', 'docs.acme.example'),
    ];
    assert.deepEqual(
      answers.map((response) => response.status),
      [200, 401, 200, 200, 200, 301, 404],
    );
    for (const response of answers) {
      assert.match(
        response.headers['strict-transport-security'] ?? '',
        /^max-age=31536000$/,
        response.raw.slice(0, 200),
      );
    }
    const plain = await send(['GET /healthz HTTP/1.1', 'Host: localhost']);
    assert.equal(plain.headers['strict-transport-security'], undefined);
  });

  it('the TLS ask: answered on the internal listener only; the public port answers 404 on every host', async () => {
    assert.equal((await app.internal('/internal/tls/ask?domain=acme.sites.localhost')).status, 200);
    assert.equal((await app.internal('/internal/tls/ask?domain=docs.acme.example')).status, 200);
    assert.equal((await app.internal('/internal/tls/ask?domain=127.0.0.1')).status, 404);
    for (const host of [
      'localhost',
      '127.0.0.1',
      'acme.sites.localhost',
      'docs.acme.example',
      'other.example',
    ]) {
      const response = await send([
        'GET /internal/tls/ask?domain=acme.sites.localhost HTTP/1.1',
        `Host: ${host}`,
      ]);
      // A site's host redirects every path to its primary domain, which answers it 404 in turn.
      assert.ok([301, 404].includes(response.status), `${host} → ${response.status}`);
      assert.doesNotMatch(response.body, /allowed/, host);
    }
    for (const path of ['/healthz', '/v1/pets', '/docs', '/dashboard/sign-in']) {
      // Under /v1 an unknown path without a key is 401, as on the public port: nothing is served.
      const status = (await app.internal(path)).status;
      assert.ok([401, 404].includes(status), `${path} on the internal listener → ${status}`);
    }
  });
});
