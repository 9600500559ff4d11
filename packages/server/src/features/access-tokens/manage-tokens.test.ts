import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../../test/manage-support.ts';

type Json = Record<string, unknown>;

/** The account's access tokens through the management API: only through a token made to manage them. */
describe('management API: access tokens', () => {
  let app: TestApp;
  let plain: TokenHolder;
  let manager: string;
  before(async () => {
    app = await makeTestApp();
    plain = await tokenHolder(app, ['acme', 'beta'], { scope: 'write' });
    app.clock.advance(1_000);
    const made = await app.app.accessTokens.create(
      { kind: 'account', accountId: plain.accountId, email: plain.email, address: null },
      { name: 'ops', scope: 'write', projects: ['acme'], expiresInDays: 7, managesTokens: true },
    );
    assert.ok(made.ok);
    manager = made.value.secret;
  });
  after(() => app.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, key: string, body?: Json) =>
    app.request({
      method,
      url,
      key,
      ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
  const json = (body: string) => JSON.parse(body) as Json;

  it('a token not made to manage tokens → 403 insufficient_scope on every token operation', async () => {
    for (const [method, url, body] of [
      ['GET', '/manage/v1/tokens', undefined],
      ['POST', '/manage/v1/tokens', { name: 'x', scope: 'read', projects: ['acme'], expiresInDays: 7 }],
      ['DELETE', `/manage/v1/tokens/${plain.tokenId}`, undefined],
    ] as const) {
      const response = await call(method, url, plain.token, body);
      assert.equal(response.status, 403, `${method} ${url} ${response.body}`);
      assert.equal(json(response.body).code, 'insufficient_scope');
    }
    assert.equal((await call('GET', '/manage/v1/projects', plain.token)).status, 200, 'still works');
  });

  it('list → the account’s tokens, newest first, without secrets; make → a token within the maker’s reach and life', async () => {
    const listed = await call('GET', '/manage/v1/tokens', manager);
    assert.equal(listed.status, 200, listed.body);
    const data = json(listed.body).data as Json[];
    assert.deepEqual(
      data.map((token) => [token.name, token.managesTokens]),
      [
        ['ops', true],
        [`token ${plain.email.slice('holder-'.length, -'@example.com'.length)}`, false],
      ],
    );
    assert.ok(!listed.body.includes(manager) && !listed.body.includes('digest'));

    const beyond = await call('POST', '/manage/v1/tokens', manager, {
      name: 'ci',
      scope: 'read',
      projects: ['beta'],
      expiresInDays: 7,
    });
    assert.equal(beyond.status, 400, 'beta is the account’s, not the maker’s');
    const made = await call('POST', '/manage/v1/tokens', manager, {
      name: 'ci',
      scope: 'read',
      projects: ['acme'],
      expiresInDays: 365,
    });
    assert.equal(made.status, 201, made.body);
    const { token, secret } = json(made.body) as { token: Json; secret: string };
    assert.deepEqual(token.projects, ['acme']);
    assert.equal(token.managesTokens, false);
    const maker = data.find((t) => t.name === 'ops')!;
    assert.equal(token.expiresAt, maker.expiresAt, 'never outlives the token that made it');
    assert.equal((await call('GET', '/manage/v1/projects/acme', secret)).status, 200);

    const revoked = await call('DELETE', `/manage/v1/tokens/${String(token.id)}`, manager);
    assert.equal(revoked.status, 200, revoked.body);
    assert.notEqual(json(revoked.body).revokedAt, null);
    assert.equal((await call('GET', '/manage/v1/projects/acme', secret)).status, 401, 'at once');
    assert.equal((await call('DELETE', `/manage/v1/tokens/${String(token.id)}`, manager)).status, 404);
    assert.equal((await call('DELETE', '/manage/v1/tokens/at_not_mine', manager)).status, 404);
  });

  it('bodies as the contract says: a missing field, a wrong type, an expiry not offered → 400 invalid_body', async () => {
    for (const body of [
      { name: 'x', scope: 'read', projects: ['acme'] },
      { name: 'x', scope: 'admin', projects: ['acme'], expiresInDays: 7 },
      { name: 'x', scope: 'read', projects: 'acme', expiresInDays: 7 },
      { name: 'x', scope: 'read', projects: [], expiresInDays: 7 },
      { name: 'x', scope: 'read', projects: ['acme'], expiresInDays: 8 },
      { name: 'x', scope: 'read', projects: ['acme'], expiresInDays: 7, managesTokens: 'yes' },
    ]) {
      const response = await call('POST', '/manage/v1/tokens', manager, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(json(response.body).code, 'invalid_body');
    }
  });
});
