import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_OWNED_PROJECTS } from '../src/features/projects/service.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';

type Json = Record<string, unknown>;

/** Projects through the management API: created by an account for itself, changed by their owners. */
describe('management API: projects created and changed', () => {
  let app: TestApp;
  let owner: TokenHolder;
  before(async () => {
    app = await makeTestApp();
    owner = await tokenHolder(app, ['acme'], { scope: 'write' });
  });
  after(() => app.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, key: string, body?: Json) =>
    app.request({
      method,
      url,
      key,
      ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
  const json = (body: string) => JSON.parse(body) as Json;

  it('POST /projects → 201 a Free project the account owns; the same token reaches it at once and makes keys in it', async () => {
    const created = await call('POST', '/manage/v1/projects', owner.token, {
      slug: 'made-by-api',
      name: 'Made by API',
    });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(
      { ...json(created.body), createdAt: undefined, limits: undefined },
      {
        slug: 'made-by-api',
        name: 'Made by API',
        plan: 'free',
        role: 'owner',
        twoFactorRequired: false,
        createdAt: undefined,
        limits: undefined,
      },
    );
    const read = await call('GET', '/manage/v1/projects/made-by-api', owner.token);
    assert.equal(read.status, 200, read.body);
    const key = await call('POST', '/manage/v1/projects/made-by-api/keys', owner.token, { label: 'first' });
    assert.equal(key.status, 201, key.body);
    const project = (await app.storage.projects.bySlug('made-by-api'))!;
    const [event] = await app.storage.audit.list({
      projectId: project.id,
      limit: 10,
      action: 'project_created',
    });
    assert.equal(event?.actor, owner.email);
    assert.match(String(event?.via), /^token:/);
  });

  it('a taken slug → 409; a read token → 403 insufficient_scope; a bad slug → 400; nothing made', async () => {
    assert.equal(
      (await call('POST', '/manage/v1/projects', owner.token, { slug: 'acme', name: 'Again' })).status,
      409,
    );
    const reader = await tokenHolder(app, ['acme'], { scope: 'read' });
    const refused = await call('POST', '/manage/v1/projects', reader.token, {
      slug: 'read-only',
      name: 'No',
    });
    assert.equal(refused.status, 403);
    assert.equal(json(refused.body).code, 'insufficient_scope');
    assert.equal(
      (await call('POST', '/manage/v1/projects', owner.token, { slug: 'Bad Slug', name: 'x' })).status,
      400,
    );
    assert.equal(await app.storage.projects.bySlug('read-only'), undefined);
  });

  it(`an account owns at most ${MAX_OWNED_PROJECTS} projects it creates itself: the next is 409`, async () => {
    const busy = await tokenHolder(app, ['busy-0'], { scope: 'write' });
    for (let i = 1; i < MAX_OWNED_PROJECTS; i++) {
      const made = await call('POST', '/manage/v1/projects', busy.token, {
        slug: `busy-${i}`,
        name: `Busy ${i}`,
      });
      assert.equal(made.status, 201, made.body);
    }
    const refused = await call('POST', '/manage/v1/projects', busy.token, {
      slug: 'busy-x',
      name: 'One more',
    });
    assert.equal(refused.status, 409);
    assert.match(String(json(refused.body).message), new RegExp(`you own ${MAX_OWNED_PROJECTS} projects`));
  });

  it('PATCH → rename; two-factor required only once the owner has it; plan only down to Free; a developer → 403', async () => {
    const developer = await tokenHolder(app, ['acme'], { role: 'developer', scope: 'write' });
    const renamed = await call('PATCH', '/manage/v1/projects/acme', owner.token, { name: 'Acme Corp' });
    assert.equal(renamed.status, 200, renamed.body);
    assert.equal(json(renamed.body).name, 'Acme Corp');

    const early = await call('PATCH', '/manage/v1/projects/acme', owner.token, {
      twoFactorRequired: true,
      name: 'Not this',
    });
    assert.equal(early.status, 403);
    assert.equal(json(early.body).code, 'two_factor_required');
    assert.equal((await app.storage.projects.bySlug('acme'))!.name, 'Acme Corp', 'all or none');
    await app.storage.accounts.beginTwoFactor(owner.accountId, 'v1.sealed', app.clock.now());
    await app.storage.accounts.confirmTwoFactor(owner.accountId, 1, ['d1'], app.clock.now());
    const required = await call('PATCH', '/manage/v1/projects/acme', owner.token, {
      twoFactorRequired: true,
    });
    assert.equal(required.status, 200, required.body);
    assert.equal(json(required.body).twoFactorRequired, true);

    const up = await call('PATCH', '/manage/v1/projects/acme', owner.token, { plan: 'pro' });
    assert.equal(up.status, 403);
    assert.equal(json(up.body).code, 'forbidden');
    await app.storage.projects.setPlan('acme', 'pro', null, null);
    const down = await call('PATCH', '/manage/v1/projects/acme', owner.token, { plan: 'free' });
    assert.equal(down.status, 200, down.body);
    assert.equal(json(down.body).plan, 'free');

    const project = (await app.storage.projects.bySlug('acme'))!;
    const actions = (await app.storage.audit.list({ projectId: project.id, limit: 20 })).map((e) => e.action);
    assert.ok(
      ['project_renamed', 'two_factor_required', 'plan_changed'].every((a) => actions.includes(a as never)),
    );

    await app.storage.accounts.beginTwoFactor(developer.accountId, 'v1.sealed', app.clock.now());
    await app.storage.accounts.confirmTwoFactor(developer.accountId, 1, ['d2'], app.clock.now());
    const forbidden = await call('PATCH', '/manage/v1/projects/acme', developer.token, { name: 'Mine' });
    assert.equal(forbidden.status, 403);
    assert.equal(json(forbidden.body).code, 'forbidden');
  });
});
