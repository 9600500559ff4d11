import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;

/**
 * Bodies and query strings exactly as openapi/manage.yaml declares them: a body is a JSON object of its
 * schema, a required body is required, an operation without one takes none, and a query parameter the
 * operation does not declare is refused. Nothing a refused request sent is written.
 */
describe('management API: bodies and queries as the contract declares them', () => {
  let app: TestApp;
  let owner: TokenHolder;
  let keyId: string;

  before(async () => {
    app = await makeTestApp();
    owner = await tokenHolder(app, ['acme']);
    const created = await send('POST', '/manage/v1/projects/acme/keys', { label: 'first' });
    keyId = (json(created.body).key as Json).id as string;
  });
  after(async () => app.close());

  const send = (method: string, url: string, body?: unknown) =>
    app.request({ method, url, key: owner.token, ...(body === undefined ? {} : { body }) });
  const written = async () => ({
    keys: (await app.storage.keys.list('prj_acme')).length,
    audit: (await app.storage.audit.list({ projectId: 'prj_acme', limit: 1_000 })).length,
  });
  const refused = async (method: string, url: string, body: unknown, code = 'invalid_body') => {
    const before = await written();
    const response = await send(method, url, body);
    assert.equal(
      response.status,
      400,
      `${method} ${url} ${String(body)} → ${response.status} ${response.body}`,
    );
    assert.equal(json(response.body).code, code, response.body);
    assert.deepEqual(await written(), before, `${method} ${url} ${String(body)} wrote nothing`);
    return json(response.body);
  };

  it('POST …/keys and …/roll with the JSON body null (or [], 1, "x", true) → 400 invalid_body; no key made', async () => {
    for (const body of ['null', '[]', '1', '"x"', 'true']) {
      const keys = await refused('POST', '/manage/v1/projects/acme/keys', body);
      assert.match(keys.message as string, /must be an object/);
      await refused('POST', `/manage/v1/projects/acme/keys/${keyId}/roll`, body);
    }
    const key = await app.storage.keys.get(keyId);
    assert.equal(key?.rolledAt ?? null, null, 'the key was not rolled');
  });

  it('POST …/invitations, …/domains and …/members/{id}/role with the body null → 400 invalid_body saying so, not "is required"', async () => {
    for (const url of [
      '/manage/v1/projects/acme/invitations',
      '/manage/v1/projects/acme/domains',
      `/manage/v1/projects/acme/members/${owner.accountId}/role`,
    ]) {
      const error = await refused('POST', url, 'null');
      assert.equal(error.message, 'the body must be an object, got null');
    }
  });

  it('POST with no body at all → 400 invalid_body where the contract requires one; 201 for a key (its body is optional)', async () => {
    for (const url of [
      '/manage/v1/projects/acme/invitations',
      '/manage/v1/projects/acme/domains',
      `/manage/v1/projects/acme/members/${owner.accountId}/role`,
    ]) {
      const error = await refused('POST', url, undefined);
      assert.match(error.message as string, /needs a JSON object as its body/);
    }
    const before = await written();
    const created = await send('POST', '/manage/v1/projects/acme/keys');
    assert.equal(created.status, 201, created.body);
    assert.equal((json(created.body).key as Json).label, null);
    assert.equal((await written()).keys, before.keys + 1);
  });

  it('DELETE …/keys/{keyId} and POST …/domains/{hostname}/check with a body → 400 invalid_body (they take none); the key stays', async () => {
    const error = await refused('DELETE', `/manage/v1/projects/acme/keys/${keyId}`, {});
    assert.match(error.message as string, /takes no request body/);
    await refused('POST', '/manage/v1/projects/acme/domains/docs.example.com/check', { now: true });
    assert.equal((await app.storage.keys.get(keyId))?.revokedAt, null);
  });

  it('POST …/keys?label=x (a query parameter the operation does not declare) → 400 invalid_parameter; no key made', async () => {
    const error = await refused('POST', '/manage/v1/projects/acme/keys?label=x', {}, 'invalid_parameter');
    assert.equal(error.param, 'label');
    assert.match(error.message as string, /unknown query parameter "label" \(this operation takes none\)/);
  });

  it('GET …/audit?since= takes RFC 3339 date-times only (the contract says date-time): 2026 or a date without a time → 400', async () => {
    for (const since of [
      '2026',
      '2026-11-22',
      'Nov 22 2026',
      '2026-11-22T12:00:00',
      '2026-02-30T00:00:00Z',
    ]) {
      const response = await send('GET', `/manage/v1/projects/acme/audit?since=${encodeURIComponent(since)}`);
      assert.equal(response.status, 400, `${since} → ${response.body}`);
      assert.equal(json(response.body).param, 'since');
    }
    for (const since of ['2026-11-22T12:00:00Z', '2026-11-22t12:00:00.5z', '2026-11-22T13:00:00+01:00']) {
      const response = await send('GET', `/manage/v1/projects/acme/audit?since=${encodeURIComponent(since)}`);
      assert.equal(response.status, 200, `${since} → ${response.body}`);
    }
  });

  it('POST …/keys with expiresAt that is no RFC 3339 date-time → 400 invalid_body naming it', async () => {
    for (const expiresAt of ['2030', '2030-01-31', '2030-01-31T00:00:00', 'Jan 31 2030']) {
      const error = await refused('POST', '/manage/v1/projects/acme/keys', { expiresAt });
      assert.equal(error.param, 'expiresAt');
    }
  });
});

describe('a query parameter name with a control character → its message escapes it, stored and answered alike', () => {
  let app: TestApp;
  let owner: TokenHolder;

  before(async () => {
    app = await makeTestApp();
    owner = await tokenHolder(app, ['acme']);
  });
  after(async () => app.close());

  it('GET /v1/pets?a%03b=1 → 400 whose message writes \\u0003; GET …/requests then answers it within LoggedRequest.message', async () => {
    const created = await app.request({
      method: 'POST',
      url: '/manage/v1/projects/acme/keys',
      key: owner.token,
      body: { label: 'logged' },
    });
    const { secret } = json(created.body) as { secret: string };
    const refusedNow = await app.request({ url: '/v1/pets?a%03b=1', key: secret });
    assert.equal(refusedNow.status, 400);
    const error = json(refusedNow.body);
    assert.equal(error.message, 'unknown query parameter "a\\u0003b" (known: limit, status, cursor)');
    assert.equal(error.param, 'a\\u0003b');
    // The harness checks each answer against the contract: the page below holds the stored message.
    const page = await app.request({ url: '/manage/v1/projects/acme/requests', key: owner.token });
    assert.equal(page.status, 200);
    const [row] = json(page.body).data as Json[];
    assert.equal(row!.message, error.message);
  });
});
