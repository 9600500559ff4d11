import type { Member, RevokedInvitation, Role } from './member-records.ts';
import { ROLES } from './member-records.ts';
import type { Project } from '../projects/project-repository.ts';
import { createAccountRepository } from '../identity/account-repository.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { type AuditNote, createAudited } from '../shared/audited.ts';
import { type Outcome, Refusal, refused } from '../shared/outcome.ts';
import { type InvitationDeps, invitationOperations } from './invitations.ts';
import { lockedAsOwner } from './owner-lock.ts';
import { memberRecords } from './repository.ts';

export { INVITATION_PAGE } from './invitations.ts';

export const isRole = (text: unknown): text is Role => (ROLES as readonly unknown[]).includes(text);

/** What removing a member or changing a role did: the member as it was, and the invitations it lost. */
export interface MemberChanged {
  member: Member;
  /** The member's pending invitations, revoked once the member is an owner no more (only owners invite). */
  revoked: RevokedInvitation[];
}

/** What the operator's `admin add-member` did: joined, role changed, or nothing. */
export interface MemberSet {
  before: Role | undefined;
  revoked: RevokedInvitation[];
}

const lastOwner = (member: Member, project: Project) =>
  new Refusal({
    code: 'conflict',
    message: `${member.email} is the last owner of ${project.slug}: make another member an owner first`,
    param: 'memberId',
  });

/** The invitations revoked with their maker's removal or demotion, as the trail records them. */
const revokedNotes = (revoked: RevokedInvitation[], maker: string): AuditNote[] =>
  revoked.map((invitation) => ({
    action: 'invitation_revoked',
    target: `${invitation.email} as ${invitation.role} (made by ${maker}, no longer an owner)`,
  }));

/**
 * A project's members and invitations: every door (dashboard, management API, command line) changes
 * them here and nowhere else. Only owners change them (authorise); each change is written with its
 * audit records in one transaction, which first takes the project's lock and checks again that the
 * actor is an owner, so a project always keeps an owner whatever runs at the same time. A member
 * removed or no longer an owner loses the invitations they made in the same transaction.
 */
export function createMemberService(deps: InvitationDeps) {
  const { storage, clock } = deps;
  const audited = createAudited(storage, clock);

  const memberOf = async (sql: SqlExecutor, project: Project, accountId: string) => {
    const member = await memberRecords(sql, storage.kind).member(project.id, accountId);
    if (!member) {
      throw new Refusal({
        code: 'not_found',
        message: `${accountId} is not a member of ${project.slug}`,
        param: 'memberId',
      });
    }
    return member;
  };

  return {
    ...invitationOperations(deps),
    /**
     * Removes a member; their dashboard sessions end in the same transaction. The last owner stays:
     * 409 conflict.
     */
    async remove(actor: Actor, slug: string, accountId: string): Promise<Outcome<MemberChanged>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      return audited(actor, project.id, async (sql) => {
        const members = await lockedAsOwner(sql, storage.kind, actor, project);
        const member = await memberOf(sql, project, accountId);
        if ((await members.remove(accountId, project.id)) !== 'done') throw lastOwner(member, project);
        const revoked = await members.revokeInvitationsOfNonOwner(accountId, project.id);
        await createAccountRepository(sql).removeSessions(accountId);
        return {
          value: { member, revoked },
          action: 'member_removed',
          target: `${member.email} (${member.role})`,
          also: revokedNotes(revoked, member.email),
        };
      });
    },

    /** Gives a member another role; the last owner stays one (409 conflict). */
    async changeRole(
      actor: Actor,
      slug: string,
      accountId: string,
      role: Role,
    ): Promise<Outcome<MemberChanged>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      return audited(actor, project.id, async (sql) => {
        const members = await lockedAsOwner(sql, storage.kind, actor, project);
        const member = await memberOf(sql, project, accountId);
        if ((await members.setRole(accountId, project.id, role)) !== 'done') throw lastOwner(member, project);
        const revoked = await members.revokeInvitationsOfNonOwner(accountId, project.id);
        return {
          value: { member, revoked },
          action: 'role_changed',
          target: `${member.email}: ${member.role} → ${role}`,
          also: revokedNotes(revoked, member.email),
        };
      });
    },

    /**
     * Makes an existing account a member with `role`, or gives a member that role (the operator's
     * `admin add-member`); the last owner stays one.
     */
    async set(actor: Actor, slug: string, email: string, role: Role): Promise<Outcome<MemberSet>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const account = await storage.accounts.byEmail(email);
      if (!account) return refused('not_found', `no account for ${email}`, 'email');
      return audited<MemberSet>(actor, project.id, async (sql) => {
        const members = await lockedAsOwner(sql, storage.kind, actor, project);
        const before = await members.roleOf(account.id, project.id);
        if (before === undefined) {
          await members.add(account.id, project.id, clock.now(), role);
          return { value: { before, revoked: [] }, action: 'member_added', target: `${email} as ${role}` };
        }
        if (before === role) return { value: { before, revoked: [] }, action: null, target: null };
        if ((await members.setRole(account.id, project.id, role)) !== 'done') {
          throw new Refusal({
            code: 'conflict',
            message: `${email} is the last owner of ${slug}: make another member an owner first`,
          });
        }
        const revoked = await members.revokeInvitationsOfNonOwner(account.id, project.id);
        return {
          value: { before, revoked },
          action: 'role_changed',
          target: `${email}: ${before} → ${role}`,
          also: revokedNotes(revoked, email),
        };
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
