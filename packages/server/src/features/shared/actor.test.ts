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

/**
 * A projects repository where the account is `role` of acme (which requires two-factor sign-in of
 * an account without it when `twoFactor` says so), counting its reads.
 */
function projects(role: Role, twoFactor: 'required' | 'not required' = 'not required') {
  const reads = { count: 0, twoFactor: 0 };
  return {
    reads,
    repository: {
      bySlug: async (slug: string) => (reads.count++, slug === 'acme' ? acme : undefined),
      roleOf: async () => (reads.count++, role),
      requiringTwoFactor: async () => (reads.twoFactor++, twoFactor === 'required' ? ['acme'] : []),
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

test('authorise → through a token, a project requiring two-factor sign-in of an account without it → 403 two_factor_required, for reads and writes alike', async () => {
  for (const [scope, write] of [
    ['read', false],
    ['write', false],
    ['write', true],
  ] as const) {
    const { reads, repository } = projects('owner', 'required');
    const outcome = await authorise(repository, actor(scope), 'acme', 'viewer', write);
    assert.equal(outcome.ok ? undefined : outcome.problem.code, 'two_factor_required');
    assert.equal(reads.twoFactor, 1);
  }
  const { reads, repository } = projects('owner', 'required');
  const signedIn: Actor = { kind: 'account', accountId: 'acc_1', email: 'a@example.com', address: null };
  assert.ok(
    (await authorise(repository, signedIn, 'acme', 'viewer', false)).ok,
    'the dashboard decides itself',
  );
  assert.equal(reads.twoFactor, 0);
});
