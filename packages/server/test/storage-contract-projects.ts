import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Project } from '../src/features/projects/project-repository.ts';
import { memberContract } from './storage-contract-members.ts';
import type { StorageFixture } from './storage-contract.ts';

const T0 = Date.UTC(2026, 0, 1);

export function project(slug: string, overrides: Partial<Project> = {}): Project {
  return {
    id: `prj_${slug}`,
    slug,
    name: `Project ${slug}`,
    plan: 'free',
    perMinute: null,
    perDay: null,
    createdAt: T0,
    ...overrides,
  };
}

const key = (id: string, projectId: string | null, plan: Project['plan'] = 'free') => ({
  id,
  digest: id.padEnd(64, '0'),
  projectId,
  plan,
  perMinute: null,
  perDay: null,
  label: null,
  environment: 'test' as const,
  createdAt: T0,
  expiresAt: null,
});

export function projectContract(fixture: () => StorageFixture): void {
  it('projects.create → the project; bySlug finds it; a taken slug → undefined, nothing changed', async () => {
    const { projects } = fixture().storage;
    const acme = project('acme', {
      name: 'Acme Docs ✓',
      plan: 'enterprise',
      perMinute: 5_000,
      perDay: 9_000_000,
    });
    assert.deepEqual(await projects.create(acme), acme);
    assert.deepEqual(await projects.bySlug('acme'), acme);
    assert.equal(await projects.create(project('acme', { id: 'prj_other', name: 'Other' })), undefined);
    assert.deepEqual(await projects.bySlug('acme'), acme);
    assert.equal(await projects.bySlug('nope'), undefined);
  });

  it('projects.list → every project by slug', async () => {
    const { projects } = fixture().storage;
    for (const slug of ['zeta', 'alpha', 'mid']) await projects.create(project(slug));
    assert.deepEqual(
      (await projects.list()).map((p) => p.slug),
      ['alpha', 'mid', 'zeta'],
    );
  });

  it('a project key is held to its project plan, changed by setPlan; a standalone key keeps its own', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme', { plan: 'free' }));
    await storage.keys.create(key('key_p', 'prj_acme', 'free'));
    await storage.keys.create(key('key_s', null, 'pro'));
    assert.equal((await storage.keys.get('key_p'))!.plan, 'free');
    assert.equal(await storage.projects.setPlan('acme', 'enterprise', 7_000, 70_000), true);
    const moved = await storage.keys.findByDigest(key('key_p', null).digest);
    assert.deepEqual(
      [moved!.plan, moved!.perMinute, moved!.perDay, moved!.projectId],
      ['enterprise', 7_000, 70_000, 'prj_acme'],
    );
    const standalone = await storage.keys.get('key_s');
    assert.deepEqual([standalone!.plan, standalone!.projectId], ['pro', null]);
    assert.equal(await storage.projects.setPlan('nope', 'pro', null, null), false);
  });

  it('a project key with limits of its own → kept beside its project plan; keys.setOwnLimits sets and clears them', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('caps', { plan: 'pro' }));
    await storage.keys.create({ ...key('key_c', 'prj_caps', 'pro'), ownPerMinute: 10 });
    const created = (await storage.keys.get('key_c'))!;
    assert.deepEqual([created.plan, created.ownPerMinute, created.ownPerDay], ['pro', 10, null]);
    assert.equal(await storage.keys.setOwnLimits('key_c', null, 500), true);
    const changed = (await storage.keys.findByDigest(key('key_c', null).digest))!;
    assert.deepEqual([changed.ownPerMinute, changed.ownPerDay], [null, 500]);
    assert.equal(await storage.keys.setOwnLimits('key_nope', 1, 1), false);
  });

  it('listPage → projects by slug after the given one, at most the limit', async () => {
    const { storage } = fixture();
    for (const slug of ['delta', 'alpha', 'charlie', 'bravo']) await storage.projects.create(project(slug));
    const slugs = async (after: string | undefined, limit: number) =>
      (await storage.projects.listPage(after, limit)).map((p) => p.slug);
    assert.deepEqual(await slugs(undefined, 2), ['alpha', 'bravo']);
    assert.deepEqual(await slugs('bravo', 10), ['charlie', 'delta']);
    assert.deepEqual(await slugs('delta', 10), []);
  });

  it('keys.list(projectId) → only that project keys; keys.list() → every key', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('a'));
    await storage.projects.create(project('b'));
    await storage.keys.create(key('key_a1', 'prj_a'));
    await storage.keys.create(key('key_b1', 'prj_b'));
    await storage.keys.create(key('key_a2', 'prj_a'));
    await storage.keys.create(key('key_s', null));
    assert.deepEqual(
      (await storage.keys.list('prj_a')).map((k) => k.id),
      ['key_a1', 'key_a2'],
    );
    assert.deepEqual((await storage.keys.list()).map((k) => k.id).sort(), [
      'key_a1',
      'key_a2',
      'key_b1',
      'key_s',
    ]);
  });

  it('a key for a project that does not exist is refused', async () => {
    const { storage } = fixture();
    await assert.rejects(storage.keys.create(key('key_x', 'prj_missing')));
    assert.equal(await storage.keys.get('key_x'), undefined);
  });

  it('projects.rename → the new name; false for an unknown slug', async () => {
    const { projects } = fixture().storage;
    await projects.create(project('acme'));
    assert.equal(await projects.rename('acme', 'Acme API'), true);
    assert.equal((await projects.bySlug('acme'))!.name, 'Acme API');
    assert.equal(await projects.rename('nope', 'x'), false);
  });

  it('memberships → isMember, listForAccount by name; adding twice changes nothing', async () => {
    const { storage } = fixture();
    const account = { id: 'acc_1', email: 'ann@example.com', passwordHash: 'h', createdAt: T0 };
    await storage.accounts.create(account);
    await storage.projects.create(project('b', { name: 'Beta' }));
    await storage.projects.create(project('a', { name: 'Alpha' }));
    await storage.projects.create(project('c', { name: 'Gamma' }));
    await storage.projects.addMember('acc_1', 'prj_b', T0);
    await storage.projects.addMember('acc_1', 'prj_a', T0);
    await storage.projects.addMember('acc_1', 'prj_a', T0 + 1);
    assert.deepEqual(
      (await storage.projects.listForAccount('acc_1')).map((p) => p.slug),
      ['a', 'b'],
    );
    assert.equal(await storage.projects.isMember('acc_1', 'prj_a'), true);
    assert.equal(await storage.projects.isMember('acc_1', 'prj_c'), false);
    assert.equal(await storage.projects.isMember('acc_other', 'prj_a'), false);
  });

  memberContract(fixture);
}
