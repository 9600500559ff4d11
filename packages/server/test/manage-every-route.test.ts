import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { projectNeeds } from '../src/manage/contract.ts';
import { manageContract } from '../src/openapi/contract.ts';
import { ROLES, type Role } from '../src/features/members/member-records.ts';

type Json = Record<string, unknown>;

/** A request path for a route of the table: its parameters filled in (`acme` the project). */
const pathOf = (url: string) =>
  url.replace(':slug', 'acme').replace(/:([A-Za-z]+)/g, (_, name: string) => `some-${name.toLowerCase()}`);

/**
 * Every operation of the management API, read from the route table the app registered (so an
 * operation added to openapi/manage.yaml is attacked too): without a token, with an API key, with a
 * token of another project, and through percent-encoded spellings of its path. None answers 2xx and
 * none writes a row of the audit trail or a key.
 */
describe('management API: every operation refuses who may not use it', () => {
  let app: TestApp;
  let stranger: TokenHolder;
  let routes: { method: string; url: string; operationId: string }[];
  let needs: Map<string, { role: Role; write: boolean }>;

  before(async () => {
    app = await makeTestApp();
    await tokenHolder(app, ['acme']);
    stranger = await tokenHolder(app, ['elsewhere']);
    routes = app.app.routeTable
      .filter((route) => route.url.startsWith('/manage/v1/') && route.config.access === 'accessToken')
      .map(({ method, url, config }) => ({ method, url, operationId: config.operationId }));
    needs = projectNeeds(manageContract().document);
  });
  after(async () => app.close());

  const written = async () => ({
    audit: (await app.storage.audit.list({ projectId: 'prj_acme', limit: 1_000 })).length,
    keys: (await app.storage.keys.list('prj_acme')).length,
  });
  // A minute apart: requests without a valid token count against the client address's budget.
  const send = (method: string, url: string, key: string | null, unchecked = false) => {
    app.clock.advance(60_000);
    return app.request({
      method,
      url,
      key,
      unchecked,
      ...(method === 'POST'
        ? { body: { label: 'x', email: 'x@example.com', role: 'viewer', hostname: 'x.example.com' } }
        : {}),
    });
  };

  it('there are operations to attack (members, invitations, domains and keys among them)', () => {
    const urls = routes.map((route) => route.url).join('\n');
    for (const part of [
      '/keys',
      '/members/:memberId/role',
      '/invitations',
      '/domains/:hostname/check',
      '/requests',
      '/audit',
    ])
      assert.ok(urls.includes(part), part);
  });

  it('no token, an API key or a malformed token → 401 on every operation; nothing written', async () => {
    const before = await written();
    for (const { method, url } of routes) {
      for (const key of [null, app.key, 'ps_at_forged', `ps_at_${'a'.repeat(5_000)}`]) {
        const response = await send(method, pathOf(url), key);
        assert.equal(
          response.status,
          401,
          `${method} ${url} with ${String(key).slice(0, 12)} → ${response.status} ${response.body}`,
        );
        assert.equal((JSON.parse(response.body) as Json).code, 'unauthorized');
      }
    }
    assert.deepEqual(await written(), before);
  });

  it("another project's write token → 404 on every operation, before its body is read; nothing written", async () => {
    const before = await written();
    for (const { method, url } of routes.filter((route) => route.url.includes(':slug'))) {
      const response = await send(method, pathOf(url), stranger.token);
      assert.equal(response.status, 404, `${method} ${url} → ${response.status} ${response.body}`);
    }
    assert.deepEqual(await written(), before);
  });

  it('every project operation names its least role (x-role); every write is one', () => {
    const onProjects = routes.filter((route) => route.url.includes(':slug'));
    assert.deepEqual([...needs.keys()].sort(), onProjects.map((route) => route.operationId).sort());
    for (const route of onProjects) assert.equal(needs.get(route.operationId)!.write, route.method !== 'GET');
  });

  // An unreadable body and a query out of range: a request that got past the checks would be 400.
  const garbled = (method: string, url: string, key: string) => {
    app.clock.advance(60_000);
    return app.request({
      method,
      url: `${pathOf(url)}${method === 'GET' ? '?limit=0' : ''}`,
      key,
      ...(method === 'GET' ? {} : { body: '{"label": ', headers: { 'content-type': 'application/json' } }),
    });
  };

  it('a change through a read token, or by a member below x-role → 403 before the body or query is read; nothing written', async () => {
    const before = await written();
    const reader = await tokenHolder(app, ['acme'], { role: 'owner', scope: 'read' });
    const below = new Map<Role, TokenHolder>();
    for (const role of ROLES) below.set(role, await tokenHolder(app, ['acme'], { role, scope: 'write' }));
    for (const { method, url, operationId } of routes) {
      const need = needs.get(operationId);
      if (!need) continue;
      if (need.write) {
        const response = await garbled(method, url, reader.token);
        assert.equal(response.status, 403, `${method} ${url} → ${response.status} ${response.body}`);
        assert.equal((JSON.parse(response.body) as Json).code, 'insufficient_scope');
      }
      // ROLES runs from owner down: every role after the one needed is below it.
      for (const role of ROLES.slice(ROLES.indexOf(need.role) + 1)) {
        const response = await garbled(method, url, below.get(role)!.token);
        assert.equal(
          response.status,
          403,
          `${method} ${url} as ${role} → ${response.status} ${response.body}`,
        );
        assert.equal((JSON.parse(response.body) as Json).code, 'forbidden');
      }
      // A member holding just the role gets past the checks to the request's own problem (if any).
      const response = await garbled(method, url, below.get(need.role)!.token);
      assert.ok(
        response.status !== 403 && response.status < 500,
        `${method} ${url} as ${need.role} → ${response.status} ${response.body}`,
      );
    }
    assert.deepEqual(await written(), before);
  });

  it('percent-encoded spellings of a path are never a way around the token: 401 or 404, never 2xx', async () => {
    for (const { method, url } of routes) {
      const path = pathOf(url);
      for (const spelled of [
        path.replace('/manage/v1/', '/manage/%76%31/'),
        path.replace('/manage/', '/%6Danage/'),
        path.replace('/projects/', '/projects%2F'),
        path.replace('/manage/v1/', '/manage//v1/'),
      ]) {
        const response = await send(method, spelled, null, true);
        assert.ok([401, 404, 400].includes(response.status), `${method} ${spelled} → ${response.status}`);
      }
    }
  });
});
