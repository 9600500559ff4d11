import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Role } from '../members/member-records.ts';
import type { Project } from '../projects/project-repository.ts';
import { type Actor, authorise } from './actor.ts';

const acme: Project = {
  id: 'prj_acme',
  slug: 'acme',
  name: 'Acme',
  plan: 'pro',
  perMinute: null,
  perDay: null,
  createdAt: 0,
};

/** A projects repository where the account is `role` of acme, counting its reads. */
function projects(role: Role) {
  const reads = { count: 0 };
  return {
    reads,
    repository: {
      bySlug: async (slug: string) => (reads.count++, slug === 'acme' ? acme : undefined),
      roleOf: async () => (reads.count++, role),
    },
  };
}

const actor = (scope: 'read' | 'write', checked?: { role: Role; slug: string }): Actor => ({
  kind: 'account',
  accountId: 'acc_1',
  email: 'a@example.com',
  address: null,
  token: { tokenId: 'at_1', scope, projectIds: new Set(['prj_acme']) },
  ...(checked ? { checked: { project: acme, ...checked } } : {}),
});

test("authorise → the guard's decision for this request's project is reused: no second read", async () => {
  const { reads, repository } = projects('developer');
  const outcome = await authorise(
    repository,
    actor('write', { role: 'developer', slug: 'acme' }),
    'acme',
    'developer',
    true,
  );
  assert.deepEqual(outcome, { ok: true, value: { project: acme, role: 'developer' } });
  assert.equal(reads.count, 0);
});

test('authorise → another slug, a higher role or a write through a read token are decided again from the database', async () => {
  for (const [who, stored, needed, code] of [
    [actor('write', { role: 'owner', slug: 'other' }), 'owner', 'owner', undefined],
    [actor('write', { role: 'developer', slug: 'acme' }), 'developer', 'owner', 'forbidden'],
    [actor('read', { role: 'developer', slug: 'acme' }), 'developer', 'viewer', 'insufficient_scope'],
  ] as const) {
    const { reads, repository } = projects(stored);
    const outcome = await authorise(repository, who, 'acme', needed, true);
    assert.equal(reads.count, 2, `needing ${needed}`);
    assert.equal(outcome.ok ? undefined : outcome.problem.code, code);
  }
});
