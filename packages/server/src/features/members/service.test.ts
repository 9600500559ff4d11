import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invite } from './invitation-mail.ts';
import { createMemberService, type MemberService } from './service.ts';
import { type Actor, OPERATOR } from '../shared/actor.ts';
import type { Role } from './member-records.ts';
import type { Project } from '../projects/project-repository.ts';
import type { Store } from '../store.ts';
import { FakeClock } from '../../time/clock.ts';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';

/** The members service's rules, whatever the door, on SQLite and PostgreSQL. */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`members service (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    let storage: Store;
    let members: MemberService;
    let cleanup: () => Promise<void> = async () => {};
    let count = 0;

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-members-',
      );
      cleanup = shared.cleanup;
      storage = await shared.open();
      await storage.migrate();
      members = createMemberService({ storage, clock });
    });
    after(async () => {
      if (skip) return;
      await storage.close();
      await cleanup();
    });

    const account = async (role?: Role, project?: Project) => {
      const id = `acc_m${++count}`;
      const email = `m${count}@example.com`;
      await storage.accounts.create({ id, email, passwordHash: 'scrypt$unused', createdAt: clock.now() });
      if (role && project) await storage.projects.addMember(id, project.id, clock.now(), role);
      const actor: Actor = { kind: 'account', accountId: id, email, address: '127.0.0.1' };
      return { id, email, actor };
    };
    const project = async () => {
      const slug = `svc-${backend}-${++count}`;
      return (await storage.projects.create({
        id: `prj_${slug}`,
        slug,
        name: slug,
        plan: 'free',
        perMinute: null,
        perDay: null,
        createdAt: clock.now(),
      }))!;
    };
    const trail = async (projectId: string) =>
      (await storage.audit.list({ projectId, limit: 100 })).map((event) => [
        event.action,
        event.target,
        event.via,
      ]);

    it('accept → joins with the role, never lowers one; a used link → not_found', { skip }, async () => {
      const acme = await project();
      const owner = await account('owner', acme);
      const newcomer = await account();
      const made = await invite(storage.projects, {
        project: acme,
        email: newcomer.email,
        role: 'developer',
        invitedBy: owner.id,
        now: clock.now(),
      });
      const joined = await members.accept(newcomer, made.token, '10.0.0.1');
      assert.ok(joined.ok);
      assert.deepEqual(joined.value.joined, { before: undefined, role: 'developer' });
      const again = await members.accept(newcomer, made.token, '10.0.0.1');
      assert.equal(!again.ok && again.problem.code, 'not_found');
      const down = await invite(storage.projects, {
        project: acme,
        email: owner.email,
        role: 'viewer',
        invitedBy: null,
        now: clock.now(),
      });
      const kept = await members.accept(owner, down.token, null);
      assert.ok(kept.ok);
      assert.deepEqual(kept.value.joined, { before: 'owner', role: 'owner' });
      assert.deepEqual((await trail(acme.id)).slice(0, 2), [
        ['invitation_accepted', `${owner.email} stays owner (invitation as viewer)`, 'dashboard'],
        ['member_added', `${newcomer.email} as developer (invitation)`, 'dashboard'],
      ]);
    });

    it(
      'accept → not_found once its maker is an owner no more (their invitations went with the demotion)',
      { skip },
      async () => {
        const acme = await project();
        const ann = await account('owner', acme);
        const bob = await account('owner', acme);
        const guest = await account();
        const made = await invite(storage.projects, {
          project: acme,
          email: guest.email,
          role: 'owner',
          invitedBy: bob.id,
          now: clock.now(),
        });
        const demoted = await members.changeRole(ann.actor, acme.slug, bob.id, 'viewer');
        assert.ok(demoted.ok);
        assert.deepEqual(
          demoted.value.revoked.map((invitation) => invitation.email),
          [guest.email],
        );
        const refused = await members.accept(guest, made.token, null);
        assert.equal(!refused.ok && refused.problem.code, 'not_found');
        assert.equal(await storage.projects.roleOf(guest.id, acme.id), undefined);
        assert.deepEqual((await trail(acme.id)).slice(0, 2), [
          [
            'invitation_revoked',
            `${guest.email} as owner (made by ${bob.email}, no longer an owner)`,
            'dashboard',
          ],
          ['role_changed', `${bob.email}: owner → viewer`, 'dashboard'],
        ]);
      },
    );

    it(
      'changeRole and remove of the last owner → conflict, nothing changed or recorded',
      { skip },
      async () => {
        const acme = await project();
        const ann = await account('owner', acme);
        for (const outcome of [
          await members.changeRole(ann.actor, acme.slug, ann.id, 'developer'),
          await members.remove(ann.actor, acme.slug, ann.id),
        ]) {
          assert.equal(!outcome.ok && outcome.problem.code, 'conflict');
        }
        assert.equal(await storage.projects.roleOf(ann.id, acme.id), 'owner');
        assert.deepEqual(await trail(acme.id), []);
      },
    );

    it(
      'an owner demoted meanwhile cannot change members: forbidden inside the transaction',
      { skip },
      async () => {
        const acme = await project();
        const ann = await account('owner', acme);
        const bob = await account('owner', acme);
        const carl = await account('viewer', acme);
        // Ann's role is read once more under the project's lock, after Bob's change committed.
        await members.changeRole(bob.actor, acme.slug, ann.id, 'developer');
        const refused = await members.remove(ann.actor, acme.slug, carl.id);
        assert.equal(!refused.ok && refused.problem.code, 'forbidden');
        assert.equal(await storage.projects.roleOf(carl.id, acme.id), 'viewer');
      },
    );

    it('the operator sets a member: added, role changed, or nothing (and no record)', { skip }, async () => {
      const acme = await project();
      const dora = await account();
      assert.deepEqual(await members.set(OPERATOR, acme.slug, dora.email, 'viewer'), {
        ok: true,
        value: { before: undefined, revoked: [] },
      });
      assert.ok((await members.set(OPERATOR, acme.slug, dora.email, 'owner')).ok);
      assert.ok((await members.set(OPERATOR, acme.slug, dora.email, 'owner')).ok);
      const last = await members.set(OPERATOR, acme.slug, dora.email, 'viewer');
      assert.equal(!last.ok && last.problem.code, 'conflict');
      const nobody = await members.set(OPERATOR, acme.slug, 'nobody@example.com', 'viewer');
      assert.equal(!nobody.ok && nobody.problem.param, 'email');
      assert.deepEqual(await trail(acme.id), [
        ['role_changed', `${dora.email}: viewer → owner`, 'cli'],
        ['member_added', `${dora.email} as viewer`, 'cli'],
      ]);
    });
  });
}
