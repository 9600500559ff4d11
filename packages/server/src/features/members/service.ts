import { emailProblem, normalizeEmail } from '../../accounts/email.ts';
import {
  INVITATION_LIMITS,
  invitationDigest,
  inviteByMail,
  newInvitation,
} from '../../accounts/invitations.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import { createInvitationRecords, type Invitation } from '../../storage/invitation-records.ts';
import { invitationAcceptedRecord } from '../../storage/audit-records.ts';
import {
  type Joined,
  type Member,
  type RevokedInvitation,
  type Role,
  ROLES,
} from '../../storage/member-records.ts';
import type { Project } from '../../storage/project-repository.ts';
import type { Storage } from '../../storage/repository.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { type AuditNote, createAudited } from '../shared/audited.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, Refusal, refused } from '../shared/outcome.ts';
import { invitationRecords, memberRecords, type PendingInvitation } from './repository.ts';

export const INVITATION_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

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
export function createMemberService(deps: {
  storage: Storage;
  clock: Clock;
  /** Where invitation mails go; needed by `invite`. */
  outbox?: Outbox;
  /** Counts each project's invitations (INVITATION_LIMITS); needed by `invite`. */
  limiter?: RateLimiter;
}) {
  const { storage, clock } = deps;
  const audited = createAudited(storage, clock);

  /** The transaction's start for a change of members: the project's lock, then the actor still an owner. */
  const lockedAsOwner = async (sql: SqlExecutor, actor: Actor, project: Project) => {
    const members = memberRecords(sql, storage.kind);
    await members.lockProject(project.id);
    if (actor.kind === 'account' && (await members.roleOf(actor.accountId, project.id)) !== 'owner') {
      throw new Refusal({ code: 'forbidden', message: `you are no longer an owner of ${project.slug}` });
    }
    return members;
  };

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

  /** The address an invitation goes to, or why it cannot; 409 for a member already. */
  const inviteeProblem = async (project: Project, typed: string) => {
    const email = normalizeEmail(typed);
    if (!email) return refused('invalid_body', `“${typed}” is not an email address`, 'email');
    const account = await storage.accounts.byEmail(email);
    if (account && (await storage.projects.roleOf(account.id, project.id)))
      return refused('conflict', `${email} is a member already`, 'email');
    const lookalike = emailProblem(email);
    if (lookalike) return refused('invalid_body', lookalike, 'email');
    return done(email);
  };

  /** Stores a new invitation with its record; the token is returned here only. */
  const storeInvitation = async (actor: Actor, project: Project, email: string, role: Role) => {
    const made = newInvitation({
      project,
      email,
      role,
      invitedBy: actor.kind === 'account' ? actor.accountId : null,
      now: clock.now(),
    });
    const stored = await audited(actor, project.id, async (sql) => {
      await lockedAsOwner(sql, actor, project);
      await createInvitationRecords(sql).createInvitation(made.invitation);
      return { value: made, action: 'invitation_created', target: `${email} as ${role}` };
    });
    return stored;
  };

  return {
    /**
     * The invitation's link used by `account` (its address must be the invitation's): marks it accepted
     * and joins the project with its role, or raises the member's role to it (never lowers one), with
     * the record of what it did, in one transaction. An invitation used, revoked, expired, or whose
     * maker is an owner no more is 404.
     */
    async accept(
      account: { id: string; email: string },
      token: string,
      address: string | null,
    ): Promise<Outcome<{ project: Project; joined: Joined }>> {
      const invitation = await storage.projects.invitationByToken(invitationDigest(token));
      const project = invitation && (await storage.projects.byId(invitation.projectId));
      const gone = refused('not_found', 'this invitation was used, revoked or has expired', 'token');
      if (!invitation || !project || invitation.email !== account.email) return gone;
      const actor: Actor = { kind: 'account', accountId: account.id, email: account.email, address };
      return audited(actor, project.id, async (sql) => {
        const members = memberRecords(sql, storage.kind);
        await members.lockProject(project.id);
        if (!(await createInvitationRecords(sql).acceptInvitation(invitation.tokenDigest, clock.now())))
          throw new Refusal(gone.problem);
        const before = await members.roleOf(account.id, project.id);
        await members.join(account.id, project.id, clock.now(), invitation.role);
        const joined = { before, role: (await members.roleOf(account.id, project.id))! };
        return {
          value: { project, joined },
          ...invitationAcceptedRecord(account.email, invitation.role, joined),
        };
      });
    },

    /** Removes a member; their dashboard sessions end. The last owner stays: 409 conflict. */
    async remove(actor: Actor, slug: string, accountId: string): Promise<Outcome<MemberChanged>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const changed = await audited(actor, project.id, async (sql) => {
        const members = await lockedAsOwner(sql, actor, project);
        const member = await memberOf(sql, project, accountId);
        if ((await members.remove(accountId, project.id)) !== 'done') throw lastOwner(member, project);
        const revoked = await members.revokeInvitationsOfNonOwner(accountId, project.id);
        return {
          value: { member, revoked },
          action: 'member_removed',
          target: `${member.email} (${member.role})`,
          also: revokedNotes(revoked, member.email),
        };
      });
      if (changed.ok) await storage.accounts.removeSessions(accountId);
      return changed;
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
        const members = await lockedAsOwner(sql, actor, project);
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
        const members = await lockedAsOwner(sql, actor, project);
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

    /** The project's pending invitations, newest first, with who made them: for owners. */
    async invitations(
      actor: Actor,
      slug: string,
      query: { limit?: number; cursor?: string },
    ): Promise<Outcome<Page<PendingInvitation>>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', false);
      if (!allowed.ok) return allowed;
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after)
        return refused('invalid_cursor', 'the cursor was altered', 'cursor');
      const limit = query.limit ?? INVITATION_PAGE.defaultLimit;
      const rows = await invitationRecords(storage.sql).page(
        allowed.value.project.id,
        clock.now(),
        after,
        limit + 1,
      );
      return done(pageOf(rows, limit, (row) => ({ at: row.createdAt, id: row.id })));
    },

    /**
     * Invites `email` with `role` by mail (links start with `origin`); never returns the link. A project
     * sends at most INVITATION_LIMITS invitations (429 rate_limited).
     */
    async invite(
      actor: Actor,
      slug: string,
      input: { email: string; role: Role },
      origin: string,
    ): Promise<Outcome<Invitation>> {
      const { outbox, limiter } = deps;
      if (!outbox || !limiter) throw new Error('inviting by mail needs the outbox and the rate limiter');
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const invitee = await inviteeProblem(project, input.email);
      if (!invitee.ok) return invitee;
      const decision = await limiter.check({ bucket: `invitations:${project.id}`, ...INVITATION_LIMITS });
      if (!decision.allowed) {
        const wait = decision.retryAfterSeconds ?? 60;
        return {
          ok: false,
          problem: {
            code: 'rate_limited',
            message: `${project.name} has sent many invitations: try again in ${wait} seconds`,
            retryAfterSeconds: wait,
          },
        };
      }
      const stored = await storeInvitation(actor, project, invitee.value, input.role);
      if (!stored.ok) return stored;
      inviteByMail(outbox, stored.value, project, origin);
      return done(stored.value.invitation);
    },

    /**
     * An invitation whose link the caller hands over itself: the operator's `admin invite`, which prints
     * it (its documented behaviour); no mail is sent.
     */
    async inviteWithLink(
      actor: Actor,
      slug: string,
      input: { email: string; role: Role },
    ): Promise<Outcome<{ token: string; invitation: Invitation }>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const invitee = await inviteeProblem(project, input.email);
      if (!invitee.ok) return invitee;
      return storeInvitation(actor, project, invitee.value, input.role);
    },

    /** Its link stops working at once; an invitation accepted, revoked or unknown is 404. */
    async revokeInvitation(
      actor: Actor,
      slug: string,
      invitationId: string,
    ): Promise<Outcome<PendingInvitation>> {
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      return audited(actor, project.id, async (sql) => {
        await lockedAsOwner(sql, actor, project);
        const revoked = await createInvitationRecords(sql).revokeInvitation(project.id, invitationId);
        if (!revoked) {
          throw new Refusal({
            code: 'not_found',
            message: `no pending invitation ${invitationId} in ${project.slug}`,
            param: 'invitationId',
          });
        }
        const inviterEmail = await invitationRecords(sql).inviterEmail(revoked);
        return {
          value: { ...revoked, inviterEmail },
          action: 'invitation_revoked',
          target: `${revoked.email} as ${revoked.role}`,
        };
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
