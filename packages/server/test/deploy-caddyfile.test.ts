import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { adaptDeployCaddyfile, type CaddyConfig, DEPLOY_CADDYFILE } from './caddy-process.ts';
import { skipWithoutTlsTools } from './tls-tools.ts';

const run = promisify(execFile);

interface Route {
  match?: { host?: string[]; path?: string[] }[];
  handle: { handler: string; routes?: Route[]; status_code?: number; upstreams?: unknown }[];
}

/** The handlers of a site's routes, in the order Caddy runs them, with the paths each is limited to. */
function steps(
  routes: Route[],
  paths: string[] = [],
): { handler: string; paths: string[]; status?: number }[] {
  return routes.flatMap((route) => {
    const within = [...paths, ...(route.match ?? []).flatMap((m) => m.path ?? [])];
    return route.handle.flatMap((handle) =>
      handle.handler === 'subroute'
        ? steps(handle.routes ?? [], within)
        : [{ handler: handle.handler, paths: within, status: handle.status_code }],
    );
  });
}

describe('deploy/Caddyfile', { skip: skipWithoutTlsTools }, () => {
  let dir: string;
  let defaults: CaddyConfig;
  let withApiHost: CaddyConfig;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-caddyfile-'));
    const adapted = await adaptDeployCaddyfile(dir, {});
    assert.deepEqual(
      adapted.warnings,
      [],
      'caddy adapt has nothing to say (formatted, no needless directive)',
    );
    defaults = adapted.config;
    withApiHost = (await adaptDeployCaddyfile(dir, { PETSTORE_API_HOST: 'api.petstore.example' })).config;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('caddy validate accepts it, with the defaults and with every setting given', async () => {
    const env = { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
    for (const settings of [
      {},
      {
        PETSTORE_API_HOST: 'api.petstore.example',
        PETSTORE_UPSTREAM_HOST: 'instances.internal',
        PETSTORE_UPSTREAM_PORT: '9090',
        ACME_CA: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      },
    ]) {
      const { stdout } = await run(
        'caddy',
        ['validate', '--config', DEPLOY_CADDYFILE, '--adapter', 'caddyfile'],
        {
          env: { ...env, ...settings },
        },
      );
      assert.match(stdout, /Valid configuration/);
    }
  });

  it('every public host answers /internal/* with 404 before anything is proxied', () => {
    const routes = Object.values(defaults.apps.http.servers).flatMap(
      (server) => (server as unknown as { routes: Route[] }).routes,
    );
    assert.equal(routes.length, 2, 'the API host and the on-demand catch-all');
    for (const route of routes) {
      const order = steps([route]);
      const proxy = order.findIndex((step) => step.handler === 'reverse_proxy');
      const internal = order.findIndex((step) => step.paths.includes('/internal/*'));
      assert.ok(internal !== -1 && internal < proxy, JSON.stringify(order));
      assert.deepEqual(order[internal], { handler: 'static_response', paths: ['/internal/*'], status: 404 });
      assert.deepEqual(order[proxy]!.paths, [], 'everything else is proxied');
    }
  });

  it('on-demand certificates for every name but the API host, each asked of the service first; Let’s Encrypt by default', () => {
    assert.equal(defaults.apps.tls.automation.on_demand?.ask, 'http://petstore:9090/internal/tls/ask');
    const { policies } = withApiHost.apps.tls.automation;
    assert.deepEqual(
      policies.map((policy) => [policy.subjects ?? 'any other name', policy.on_demand ?? false]),
      [
        [['api.petstore.example'], false],
        ['any other name', true],
      ],
    );
    for (const policy of [...policies, ...defaults.apps.tls.automation.policies]) {
      assert.deepEqual(
        policy.issuers.map((issuer) => issuer.ca),
        ['https://acme-v02.api.letsencrypt.org/directory'],
      );
    }
  });
});
