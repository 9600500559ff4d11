import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIdentityChanges } from '../src/features/identity/identity-changes.ts';
import { FakeClock } from '../src/time/clock.ts';
import type { Invitation } from '../src/features/members/invitation-records.ts';
import type { Role } from '../src/features/members/member-records.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);
/** Rounds of two owners removing or demoting each other at the same time. */
const RACE_ROUNDS = 50;

const invitation = (id: string, invitedBy: string | null, role: Role = 'owner'): Invitation => ({
  id,
  tokenDigest: `digest-${id}`,
  projectId: 'prj_acme',
  email: `${id}@example.com`,
  role,
  invitedBy,
  createdAt: T0,
  expiresAt: T0 + 1_000,
  acceptedAt: null,
});

/** Removal and demotion revoke what the member invited; accepting records what it did; one owner always remains. */
export function memberChangeContract(fixture: () => StorageFixture): void {
  const setUp = async (members: [string, Role][]) => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    for (const [name, role] of members) {
      await storage.accounts.create({
        id: `acc_${name}`,
        email: `${name}@example.com`,
        passwordHash: 'h',
        createdAt: T0,
      });
      await storage.projects.addMember(`acc_${name}`, 'prj_acme', T0, role);
    }
    return storage;
  };
  const pendingIds = async (storage: StorageFixture['storage']) =>
    (await storage.projects.pendingInvitations('prj_acme', T0)).map((found) => found.id).sort();

  it('removeMember → the pending invitations the member made are revoked with it, and returned', async () => {
    const storage = await setUp([
      ['ann', 'owner'],
      ['bob', 'owner'],
    ]);
    await storage.projects.createInvitation(invitation('inv_bob', 'acc_bob'));
    await storage.projects.createInvitation(invitation('inv_used', 'acc_bob', 'viewer'));
    await storage.projects.acceptInvitation('digest-inv_used', T0 + 1);
    await storage.projects.createInvitation(invitation('inv_ann', 'acc_ann'));
    await storage.projects.createInvitation(invitation('inv_operator', null));
    assert.deepEqual(await storage.projects.removeMember('acc_bob', 'prj_acme'), {
      outcome: 'done',
      revoked: [{ id: 'inv_bob', email: 'inv_bob@example.com', role: 'owner' }],
    });
    assert.deepEqual(await pendingIds(storage), ['inv_ann', 'inv_operator']);
    assert.equal(await storage.projects.acceptInvitation('digest-inv_bob', T0 + 2), false);
    assert.ok(
      (await storage.projects.invitationByToken('digest-inv_used'))!.acceptedAt,
      'accepted ones stay',
    );
  });

  it('setRole → an owner made developer loses the invitations they made; the last owner keeps theirs', async () => {
    const storage = await setUp([
      ['ann', 'owner'],
      ['bob', 'owner'],
    ]);
    await storage.projects.createInvitation(invitation('inv_ann', 'acc_ann'));
    await storage.projects.createInvitation(invitation('inv_bob', 'acc_bob'));
    assert.deepEqual(await storage.projects.setRole('acc_bob', 'prj_acme', 'owner'), {
      outcome: 'done',
      revoked: [],
    });
    assert.deepEqual((await storage.projects.setRole('acc_bob', 'prj_acme', 'developer')).revoked, [
      { id: 'inv_bob', email: 'inv_bob@example.com', role: 'owner' },
    ]);
    assert.deepEqual(await storage.projects.setRole('acc_ann', 'prj_acme', 'viewer'), {
      outcome: 'last_owner',
      revoked: [],
    });
    assert.deepEqual(await pendingIds(storage), ['inv_ann']);
  });

  it('acceptInvitation → false once its maker is no longer an owner (an invitation planted during removal)', async () => {
    const storage = await setUp([
      ['ann', 'owner'],
      ['bob', 'owner'],
      ['dev', 'developer'],
    ]);
    await storage.projects.removeMember('acc_bob', 'prj_acme');
    await storage.projects.createInvitation(invitation('inv_late', 'acc_bob'));
    await storage.projects.createInvitation(invitation('inv_dev', 'acc_dev'));
    await storage.projects.createInvitation(invitation('inv_ann', 'acc_ann'));
    assert.equal(await storage.projects.acceptInvitation('digest-inv_late', T0 + 1), false);
    assert.equal(await storage.projects.acceptInvitation('digest-inv_dev', T0 + 1), false);
    assert.equal(await storage.projects.acceptInvitation('digest-inv_ann', T0 + 1), true);
  });

  it('removeAccount → the pending invitations the account made go with it, not as the operator’s', async () => {
    const storage = await setUp([
      ['ann', 'owner'],
      ['bob', 'owner'],
    ]);
    await storage.projects.createInvitation(invitation('inv_bob', 'acc_bob'));
    await storage.projects.createInvitation(invitation('inv_used', 'acc_bob', 'viewer'));
    await storage.projects.acceptInvitation('digest-inv_used', T0 + 1);
    const identity = createIdentityChanges({ storage, clock: new FakeClock(T0) });
    assert.equal((await identity.removeAccount({ kind: 'operator' }, 'acc_bob')).value.removed, true);
    assert.equal(await storage.projects.invitationByToken('digest-inv_bob'), undefined);
    assert.equal((await storage.projects.invitationByToken('digest-inv_used'))!.invitedBy, null);
  });

  it('joinByInvitation → joins with the role; a member keeps the higher role and is told the one before', async () => {
    const storage = await setUp([
      ['ann', 'owner'],
      ['dev', 'developer'],
    ]);
    await storage.accounts.create({
      id: 'acc_new',
      email: 'new@example.com',
      passwordHash: 'h',
      createdAt: T0,
    });
    const join = (account: string, role: Role) =>
      storage.projects.joinByInvitation(account, 'prj_acme', T0 + 5, role);
    assert.deepEqual(await join('acc_new', 'viewer'), { before: undefined, role: 'viewer' });
    assert.deepEqual(await join('acc_new', 'viewer'), { before: 'viewer', role: 'viewer' });
    assert.deepEqual(await join('acc_dev', 'owner'), { before: 'developer', role: 'owner' });
    assert.deepEqual(await join('acc_ann', 'viewer'), { before: 'owner', role: 'owner' });
    const since = new Map((await storage.projects.members('prj_acme')).map((m) => [m.accountId, m.since]));
    assert.equal(since.get('acc_dev'), T0, 'a member keeps the day they joined');
  });

  it(`two owners removing or demoting each other at once, ${RACE_ROUNDS} times → one owner always remains`, async () => {
    const { storage } = fixture();
    const other = await fixture().open();
    for (const name of ['ann', 'bob']) {
      await storage.accounts.create({
        id: `acc_${name}`,
        email: `${name}@example.com`,
        passwordHash: 'h',
        createdAt: T0,
      });
    }
    const moves = [
      (s: typeof storage, id: string, p: string) => s.projects.removeMember(id, p),
      (s: typeof storage, id: string, p: string) => s.projects.setRole(id, p, 'viewer'),
    ];
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const slug = `race-${round}`;
      await storage.projects.create(project(slug));
      const projectId = `prj_${slug}`;
      await storage.projects.addMember('acc_ann', projectId, T0, 'owner');
      await storage.projects.addMember('acc_bob', projectId, T0, 'owner');
      const outcomes = await Promise.all([
        moves[round % 2]!(storage, 'acc_bob', projectId),
        moves[Math.floor(round / 2) % 2]!(other, 'acc_ann', projectId),
      ]);
      const owners = (await storage.projects.members(projectId)).filter((m) => m.role === 'owner');
      assert.equal(owners.length, 1, `round ${round}: ${JSON.stringify(outcomes)}`);
      assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['done', 'last_owner'], `round ${round}`);
    }
  });
}
