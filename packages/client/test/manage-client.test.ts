import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../server/test/manage-support.ts';
import { createManageClient, type ManageClient, PetstoreError } from '../src/index.ts';

/** The management client against a real server on a port: every operation of the contract's API. */
describe('createManageClient against a server on a port', () => {
  let app: TestApp;
  let owner: TokenHolder;
  let viewer: TokenHolder;
  let manage: ManageClient;
  let baseUrl: string;

  before(async () => {
    app = await makeTestApp();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}/manage/v1`;
    owner = await tokenHolder(app, ['acme']);
    viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
    manage = createManageClient({ baseUrl, token: owner.token });
  });
  after(async () => app?.close());

  it('GET /projects and /projects/{slug}: typed answers, limits as exact bigints', async () => {
    const { data: list, status } = await manage.get('/projects');
    assert.equal(status, 200);
    assert.deepEqual(
      list.data.map((project) => project.slug),
      ['acme'],
    );
    const { data: project, requestId } = await manage.get('/projects/{slug}', { path: { slug: 'acme' } });
    assert.equal(project.role, 'owner');
    assert.equal(typeof project.limits.perMinute, 'bigint');
    assert.ok(requestId);
  });

  it('POST …/keys with expiry and own limits, roll, revoke: the answers of the contract', async () => {
    const expiresAt = new Date(app.clock.now() + 86_400_000).toISOString();
    const { data: created, status } = await manage.post('/projects/{slug}/keys', {
      path: { slug: 'acme' },
      body: { label: 'CI', expiresAt, perMinute: 10n },
    });
    assert.equal(status, 201);
    assert.match(created.secret, /^ps_test_/);
    assert.equal(created.key.expiresAt, expiresAt);
    assert.equal(created.key.ownLimits.perMinute, 10n);
    const { data: rolled } = await manage.post('/projects/{slug}/keys/{keyId}/roll', {
      path: { slug: 'acme', keyId: created.key.id },
      body: { overlapSeconds: 60 },
    });
    assert.equal(rolled.previous.id, created.key.id);
    assert.equal(rolled.previous.state, 'rolling');
    assert.equal(rolled.previous.stateUntil, rolled.previous.expiresAt);
    const { data: changed } = await manage.patch('/projects/{slug}/keys/{keyId}', {
      path: { slug: 'acme', keyId: rolled.key.id },
      body: { label: 'CI rolled', perMinute: null },
    });
    assert.deepEqual([changed.label, changed.ownLimits.perMinute], ['CI rolled', null]);
    const { data: revoked } = await manage.delete('/projects/{slug}/keys/{keyId}', {
      path: { slug: 'acme', keyId: rolled.key.id },
    });
    assert.equal(revoked.state, 'revoked');
  });

  it('pages and items follow `next` until hasMore is false: every key once, in order', async () => {
    for (let n = 0; n < 5; n++) {
      await manage.post('/projects/{slug}/keys', { path: { slug: 'acme' }, body: { label: `page ${n}` } });
    }
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const page of manage.pages('/projects/{slug}/keys', {
      path: { slug: 'acme' },
      query: { limit: 2 },
    })) {
      sizes.push(page.data.length);
      ids.push(...page.data.map((key) => key.id));
      assert.equal(page.hasMore, page.next !== null);
    }
    assert.ok(sizes.length >= 4, `pages of 2: ${sizes.join(',')}`);
    assert.equal(new Set(ids).size, ids.length);
    const items: string[] = [];
    for await (const key of manage.items('/projects/{slug}/keys', {
      path: { slug: 'acme' },
      query: { limit: 3 },
    })) {
      items.push(key.id);
    }
    assert.deepEqual(items, ids);
    const audit: string[] = [];
    for await (const event of manage.items('/projects/{slug}/audit', {
      path: { slug: 'acme' },
      query: { limit: 2 },
    })) {
      audit.push(event.action);
    }
    assert.ok(audit.includes('key_rolled') && audit.includes('key_revoked'), audit.join(','));
  });

  it('ndjson streams every request of the export, one object a line', async () => {
    const { data } = await manage.post('/projects/{slug}/keys', {
      path: { slug: 'acme' },
      body: { label: 'logged' },
    });
    for (let i = 0; i < 7; i++) await app.request({ url: '/v1/pets?limit=1', key: data.secret });
    const rows = [];
    for await (const row of manage.ndjson('/projects/{slug}/requests', {
      path: { slug: 'acme' },
      query: { key: data.key.id },
    })) {
      rows.push(row);
    }
    assert.equal(rows.length, 7);
    assert.ok(rows.every((row) => row.keyId === data.key.id && row.status === 200));
  });

  it('a read token of a viewer is refused a change: PetstoreError with the Error body, sent once', async () => {
    let calls = 0;
    const counting = createManageClient({
      baseUrl,
      token: viewer.token,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await assert.rejects(
      counting.post('/projects/{slug}/keys', { path: { slug: 'acme' }, body: {} }),
      (error: unknown) =>
        error instanceof PetstoreError &&
        error.code === 'insufficient_scope' &&
        error.status === 403 &&
        /may only read/.test(error.message),
    );
    assert.equal(calls, 1);
    await assert.rejects(
      counting.get('/projects/{slug}', { path: { slug: 'nope' } }),
      (error: unknown) => error instanceof PetstoreError && error.code === 'not_found',
    );
  });

  it('an unknown token → unauthorized (401), not retried', async () => {
    const stranger = createManageClient({ baseUrl, token: 'ps_at_nothing' });
    await assert.rejects(
      stranger.get('/projects'),
      (error: unknown) =>
        error instanceof PetstoreError && error.code === 'unauthorized' && error.status === 401,
    );
  });
});
