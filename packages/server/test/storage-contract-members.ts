import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { StorageFixture } from './storage-contract.ts';
import { memberChangeContract } from './storage-contract-member-changes.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);

export function memberContract(fixture: () => StorageFixture): void {
  const setUp = async (emails: string[]) => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    for (const email of emails) {
      await storage.accounts.create({
        id: `acc_${email}`,
        email: `${email}@example.com`,
        passwordHash: 'h',
        createdAt: T0,
      });
    }
    return storage;
  };

  it('members → owners first, then by email, with role and since; roleOf; owner unless told', async () => {
    const storage = await setUp(['zed', 'ann', 'bob', 'cat']);
    await storage.projects.addMember('acc_zed', 'prj_acme', T0);
    await storage.projects.addMember('acc_bob', 'prj_acme', T0 + 1, 'viewer');
    await storage.projects.addMember('acc_ann', 'prj_acme', T0 + 2, 'developer');
    await storage.projects.addMember('acc_cat', 'prj_acme', T0 + 3, 'owner');
    await storage.projects.addMember('acc_bob', 'prj_acme', T0 + 4, 'owner');
    assert.deepEqual(
      (await storage.projects.members('prj_acme')).map((m) => [m.email, m.role, m.since]),
      [
        ['cat@example.com', 'owner', T0 + 3],
        ['zed@example.com', 'owner', T0],
        ['ann@example.com', 'developer', T0 + 2],
        ['bob@example.com', 'viewer', T0 + 1],
      ],
    );
    assert.equal(await storage.projects.roleOf('acc_ann', 'prj_acme'), 'developer');
    assert.equal(await storage.projects.roleOf('acc_nobody', 'prj_acme'), undefined);
  });

  it('setRole and removeMember → done; the last owner can be neither demoted nor removed; not_member', async () => {
    const storage = await setUp(['ann', 'bob']);
    await storage.projects.addMember('acc_ann', 'prj_acme', T0);
    await storage.projects.addMember('acc_bob', 'prj_acme', T0, 'developer');
    assert.equal((await storage.projects.setRole('acc_ann', 'prj_acme', 'viewer')).outcome, 'last_owner');
    assert.equal((await storage.projects.removeMember('acc_ann', 'prj_acme')).outcome, 'last_owner');
    assert.equal((await storage.projects.setRole('acc_bob', 'prj_acme', 'owner')).outcome, 'done');
    assert.equal((await storage.projects.setRole('acc_ann', 'prj_acme', 'viewer')).outcome, 'done');
    assert.equal((await storage.projects.removeMember('acc_bob', 'prj_acme')).outcome, 'last_owner');
    assert.equal((await storage.projects.removeMember('acc_ann', 'prj_acme')).outcome, 'done');
    assert.equal((await storage.projects.removeMember('acc_ann', 'prj_acme')).outcome, 'not_member');
    assert.equal((await storage.projects.setRole('acc_ann', 'prj_acme', 'owner')).outcome, 'not_member');
    assert.deepEqual(
      (await storage.projects.members('prj_acme')).map((m) => [m.accountId, m.role]),
      [['acc_bob', 'owner']],
    );
  });

  it('invitations → found by token digest; pending until accepted once or expired; revoked by id', async () => {
    const storage = await setUp(['ann']);
    await storage.projects.addMember('acc_ann', 'prj_acme', T0);
    const invitation = (id: string, expiresAt = T0 + 1_000) => ({
      id,
      tokenDigest: `digest-${id}`,
      projectId: 'prj_acme',
      email: `${id}@example.com`,
      role: 'viewer' as const,
      invitedBy: 'acc_ann',
      createdAt: T0,
      expiresAt,
      acceptedAt: null,
    });
    await storage.projects.createInvitation(invitation('inv_1'));
    await storage.projects.createInvitation(invitation('inv_2'));
    await storage.projects.createInvitation(invitation('inv_old', T0 + 10));
    assert.deepEqual(await storage.projects.invitationByToken('digest-inv_1'), invitation('inv_1'));
    assert.equal(await storage.projects.invitationByToken('digest-nope'), undefined);
    assert.deepEqual(
      (await storage.projects.pendingInvitations('prj_acme', T0 + 10)).map((i) => i.id),
      ['inv_1', 'inv_2'],
    );
    const accepts = await Promise.all([
      storage.projects.acceptInvitation('digest-inv_1', T0 + 5),
      storage.projects.acceptInvitation('digest-inv_1', T0 + 5),
    ]);
    assert.deepEqual(accepts.toSorted(), [false, true], 'accepted once, by one caller');
    assert.equal((await storage.projects.invitationByToken('digest-inv_1'))!.acceptedAt, T0 + 5);
    assert.equal(await storage.projects.acceptInvitation('digest-inv_old', T0 + 10), false, 'expired');
    assert.equal(await storage.projects.revokeInvitation('prj_other', 'inv_2'), undefined);
    assert.deepEqual(await storage.projects.revokeInvitation('prj_acme', 'inv_2'), invitation('inv_2'));
    assert.equal(await storage.projects.acceptInvitation('digest-inv_2', T0 + 5), false, 'revoked');
    assert.deepEqual(await storage.projects.pendingInvitations('prj_acme', T0), [
      { ...invitation('inv_old', T0 + 10), delivery: null },
    ]);
  });
  memberChangeContract(fixture);
}
