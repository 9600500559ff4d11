import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;

/** Every write of the management API, with a body it would accept. */
const WRITES = [
  { method: 'POST', url: '/manage/v1/projects/acme/keys', body: { label: 'x' } },
  { method: 'DELETE', url: '/manage/v1/projects/acme/keys/KEY' },
  { method: 'POST', url: '/manage/v1/projects/acme/keys/KEY/roll', body: {} },
];

describe('management API: access tokens', () => {
  let app: TestApp;
  let owner: TokenHolder;
  let keyId: string;

  before(async () => {
    app = await makeTestApp();
    owner = await tokenHolder(app, ['acme', 'other']);
    const created = await app.request({
      method: 'POST',
      url: '/manage/v1/projects/acme/keys',
      key: owner.token,
      body: { label: 'target' },
    });
    keyId = (json(created.body).key as Json).id as string;
  });
  after(async () => app.close());

  it('GET /manage/v1/projects → the token’s projects with the account’s role', async () => {
    const viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
    const response = await app.request({ url: '/manage/v1/projects', key: viewer.token });
    assert.equal(response.status, 200);
    assert.deepEqual(
      (json(response.body).data as Json[]).map((project) => [project.slug, project.role]),
      [['acme', 'viewer']],
    );
    const one = await app.request({ url: '/manage/v1/projects/acme', key: owner.token });
    assert.equal(json(one.body).role, 'owner');
  });

  it('GET /manage/v1/projects/{slug}/members → the members and their roles, to a viewer too', async () => {
    const viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
    const response = await app.request({ url: '/manage/v1/projects/acme/members', key: viewer.token });
    assert.equal(response.status, 200);
    const members = json(response.body).data as Json[];
    assert.ok(members.some((member) => member.email === owner.email && member.role === 'owner'));
    assert.ok(members.some((member) => member.email === viewer.email && member.role === 'viewer'));
  });

  it('GET /manage/v1/projects/{slug} → 404 for a project the token does not reach, as for none', async () => {
    const narrow = await tokenHolder(app, ['acme']);
    await app.storage.projects.addMember(narrow.accountId, 'prj_other', app.clock.now(), 'owner');
    for (const slug of ['other', 'nothing']) {
      const response = await app.request({ url: `/manage/v1/projects/${slug}`, key: narrow.token });
      assert.equal(response.status, 404);
      assert.equal(json(response.body).code, 'not_found');
    }
  });

  for (const [role, scope, code] of [
    ['viewer', 'write', 'forbidden'],
    ['owner', 'read', 'insufficient_scope'],
  ] as const) {
    it(`every write with a ${scope} token of a ${role} → 403 ${code}, and nothing changes`, async () => {
      const holder = await tokenHolder(app, ['acme'], { role, scope });
      const before = await app.storage.keys.list('prj_acme');
      for (const write of WRITES) {
        const response = await app.request({
          ...write,
          url: write.url.replace('KEY', keyId),
          key: holder.token,
        });
        assert.equal(response.status, 403, `${write.method} ${write.url}`);
        assert.equal(json(response.body).code, code);
      }
      assert.deepEqual(await app.storage.keys.list('prj_acme'), before);
    });
  }

  it('an expired, a revoked, an API key or no token → 401 unauthorized with WWW-Authenticate', async () => {
    const expiring = await tokenHolder(app, ['acme'], { expiresInDays: 7 });
    const revoked = await tokenHolder(app, ['acme']);
    const outcome = await app.app.accessTokens.revoke(
      { kind: 'account', accountId: revoked.accountId, email: revoked.email, address: null },
      revoked.tokenId,
    );
    assert.ok(outcome.ok);
    assert.equal((await app.request({ url: '/manage/v1/projects', key: expiring.token })).status, 200);
    app.clock.advance(7 * 86_400_000);
    for (const key of [expiring.token, revoked.token, app.key, null, 'ps_at_short']) {
      const response = await app.request({ url: '/manage/v1/projects', key });
      assert.equal(response.status, 401, String(key));
      assert.equal(json(response.body).code, 'unauthorized');
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    }
    const expired = await app.request({ url: '/manage/v1/projects', key: expiring.token });
    assert.match(
      String(json(expired.body).message),
      /^the access token expired at \d{4}-\d\d-\d\dT.+Z: make a new one/,
    );
    const gone = await app.request({ url: '/manage/v1/projects', key: revoked.token });
    assert.match(String(json(gone.body).message), /^the access token was revoked at /);
    const unknown = await app.request({
      url: '/manage/v1/projects',
      key: `${expiring.token.slice(0, -4)}zzzz`,
    });
    assert.match(String(json(unknown.body).message), /^a valid access token is required/);
  });

  it('an access token on /v1 → 401: the public API takes API keys only', async () => {
    const response = await app.request({ url: '/v1/pets', key: owner.token });
    assert.equal(response.status, 401);
  });

  it('GET /manage/v1/openapi.json → the management API’s document, without a token', async () => {
    const response = await app.request({ url: '/manage/v1/openapi.json', key: null });
    assert.equal(response.status, 200);
    assert.equal(
      json(response.body).info && (json(response.body).info as Json).title,
      'Petstore Management API',
    );
  });

  it('GET /docs/manage → the docs page, with the management API’s reference as its data', async () => {
    const page = await app.request({ url: '/docs/manage', key: null, unchecked: true });
    assert.equal(page.status, 200);
    assert.match(page.body, /Petstore Management API/);
    assert.match(page.body, /manage-reference\.json/);
    const data = await app.request({ url: '/docs/assets/manage-reference.json', key: null, unchecked: true });
    assert.equal(data.status, 200);
    const reference = json(data.body) as { paths: Record<string, Json>; 'x-search': unknown[] };
    assert.ok(reference.paths['/projects/{slug}/keys/{keyId}/roll']);
    assert.ok(reference['x-search'].length > 0);
  });

  it('each token has its own rate limit: over it → 429 rate_limited with Retry-After', async () => {
    const limited = await makeTestApp({ manageTokenLimits: { perMinute: 2, perDay: 100 } });
    try {
      const holder = await tokenHolder(limited, ['acme']);
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await limited.request({ url: '/manage/v1/projects', key: holder.token })).status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
