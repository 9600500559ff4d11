import { emailProblem, emailSkeleton, normalizeEmail } from '../identity/email.ts';
import { quoted } from '../../errors.ts';
import {
  INVITATION_LIMITS,
  invitationDigest,
  type InvitationMailer,
  newInvitation,
  queueInvitationMail,
} from './invitation-mail.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import { createAuditRecords, invitationAcceptedRecord } from '../audit/audit-records.ts';
import { createAccountRepository, type NewAccount } from '../identity/account-repository.ts';
import { createOutboxRecords } from '../../mail/outbox-records.ts';
import { createInvitationRecords, type Invitation } from './invitation-records.ts';
import type { Joined, Role } from './member-records.ts';
import type { Project } from '../projects/project-repository.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, auditActor, authorise } from '../shared/actor.ts';
import { createAudited } from '../shared/audited.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, Refusal, refused } from '../shared/outcome.ts';
import { lockedAsOwner } from './owner-lock.ts';
import { invitationRecords, memberRecords, type PendingInvitation } from './repository.ts';

export const INVITATION_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

export interface InvitationDeps {
  storage: Store;
  clock: Clock;
  /** Where invitation mails go; needed by `invite`. */
  outbox?: Outbox;
  /** Counts each project's invitations (INVITATION_LIMITS); needed by `invite`. */
  limiter?: RateLimiter;
}

/**
 * The members service's invitations (service.ts): made by owners, mailed (or, for the operator,
 * printed), listed, revoked and accepted, each change with its audit record in one transaction.
 */
export function invitationOperations(deps: InvitationDeps) {
  const { storage, clock } = deps;
  const audited = createAudited(storage, clock);

  /**
   * The address an invitation goes to, or why it cannot: 409 for a member already, also when the
   * address differs from a member's only by characters nobody sees or punctuation that imitates
   * (emailSkeleton): that is no new address; 400 for any other address holding them.
   */
  const inviteeProblem = async (project: Project, typed: string) => {
    const email = normalizeEmail(typed);
    if (!email) return refused('invalid_body', `${quoted(typed)} is not an email address`, 'email');
    for (const candidate of new Set([email, emailSkeleton(email)])) {
      const account = await storage.accounts.byEmail(candidate);
      if (!account || !(await storage.projects.roleOf(account.id, project.id))) continue;
      return refused(
        'conflict',
        candidate === email
          ? `${email} is a member already`
          : `that address reads as ${candidate}, a member already: it differs only by characters that cannot be seen or that imitate others`,
        'email',
      );
    }
    const lookalike = emailProblem(email);
    if (lookalike) return refused('invalid_body', lookalike, 'email');
    return done(email);
  };

  /**
   * Stores a new invitation with its record and, given `mailer`, its mail in the outbox; the token is
   * returned here only.
   */
  const storeInvitation = async (
    actor: Actor,
    project: Project,
    email: string,
    role: Role,
    mailer?: InvitationMailer,
  ) => {
    const made = newInvitation({
      project,
      email,
      role,
      invitedBy: actor.kind === 'account' ? actor.accountId : null,
      now: clock.now(),
    });
    const stored = await audited(actor, project.id, async (sql) => {
      await lockedAsOwner(sql, storage.kind, actor, project);
      const records = createInvitationRecords(sql);
      // One pending invitation an address: a second would be a second mail and a second link.
      const pending = (await records.pendingInvitations(project.id, clock.now())).find(
        (invitation) => invitation.email === email,
      );
      if (pending) {
        throw new Refusal({
          code: 'conflict',
          message: `${email} has a pending invitation to ${project.slug} (${pending.id}, as ${pending.role}): resend or revoke it`,
          param: 'email',
        });
      }
      await records.createInvitation(made.invitation);
      if (mailer) made.invitation.delivery = await queueInvitationMail(sql, mailer, made, project);
      return { value: made, action: 'invitation_created', target: `${email} as ${role}` };
    });
    if (stored.ok) mailer?.outbox.wake();
    return stored;
  };

  /** The project's invitations limiter's answer: undefined when one more may be sent. */
  const overInvitationLimit = async (project: Project) => {
    const { limiter } = deps;
    if (!limiter) throw new Error('inviting by mail needs the rate limiter');
    const decision = await limiter.check({ bucket: `invitations:${project.id}`, ...INVITATION_LIMITS });
    if (decision.allowed) return undefined;
    const wait = decision.retryAfterSeconds ?? 60;
    return {
      ok: false as const,
      problem: {
        code: 'rate_limited' as const,
        message: `${project.name} has sent many invitations: try again in ${wait} seconds`,
        retryAfterSeconds: wait,
      },
    };
  };

  /**
   * Accepts the invitation of `token` for `account` (new when `create` is given: made in the same
   * transaction, with its own record), or why not.
   */
  const acceptAs = async (
    account: { id: string; email: string },
    token: string,
    address: string | null,
    create?: NewAccount,
  ): Promise<Outcome<{ project: Project; joined: Joined }>> => {
    const invitation = await storage.projects.invitationByToken(invitationDigest(token));
    const project = invitation && (await storage.projects.byId(invitation.projectId));
    const gone = refused('not_found', 'this invitation was used, revoked or has expired', 'token');
    if (!invitation || !project || invitation.email !== account.email) return gone;
    const actor: Actor = { kind: 'account', accountId: account.id, email: account.email, address };
    return audited(actor, project.id, async (sql) => {
      const members = memberRecords(sql, storage.kind);
      await members.lockProject(project.id);
      if (create) {
        if (!(await createAccountRepository(sql).create(create))) {
          throw new Refusal({
            code: 'conflict',
            message: `${create.email} has an account already`,
            param: 'email',
          });
        }
        await createAuditRecords(sql).record({
          at: clock.now(),
          projectId: null,
          ...auditActor(actor),
          action: 'account_created',
          target: `${create.email} (invitation to ${project.slug})`,
        });
      }
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
  };

  return {
    /**
     * The invitation's link used by `account` (its address must be the invitation's): marks it accepted
     * and joins the project with its role, or raises the member's role to it (never lowers one), with
     * the record of what it did, in one transaction. An invitation used, revoked, expired, or whose
     * maker is an owner no more is 404.
     */
    accept: (account: { id: string; email: string }, token: string, address: string | null) =>
      acceptAs(account, token, address),

    /**
     * A new account made by the invitation's link (the link proved the mailbox): the account, its
     * record and the acceptance in one transaction, so an invitation used or revoked meanwhile leaves
     * no account behind. An address with an account already is 409.
     */
    acceptWithNewAccount: (account: NewAccount, token: string, address: string | null) =>
      acceptAs(account, token, address, account),

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
      const { outbox } = deps;
      if (!outbox) throw new Error('inviting by mail needs the outbox');
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const invitee = await inviteeProblem(project, input.email);
      if (!invitee.ok) return invitee;
      const limited = await overInvitationLimit(project);
      if (limited) return limited;
      const stored = await storeInvitation(actor, project, invitee.value, input.role, { outbox, origin });
      if (!stored.ok) return stored;
      return done(stored.value.invitation);
    },

    /**
     * A pending invitation whose mail was given up (its latest mail `failed`), mailed again with a new
     * link, good for INVITATION_TTL_MS from now (the old link stops working): owners only, recorded,
     * counted in INVITATION_LIMITS like a new one. 409 while its mail is queued or was delivered.
     */
    async resendInvitation(
      actor: Actor,
      slug: string,
      invitationId: string,
      origin: string,
    ): Promise<Outcome<PendingInvitation>> {
      const { outbox } = deps;
      if (!outbox) throw new Error('resending an invitation needs the outbox');
      const allowed = await authorise(storage.projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const limited = await overInvitationLimit(project);
      if (limited) return limited;
      const resent = await audited(actor, project.id, async (sql) => {
        await lockedAsOwner(sql, storage.kind, actor, project);
        const invitations = createInvitationRecords(sql);
        const pending = (await invitations.pendingInvitations(project.id, clock.now())).find(
          (invitation) => invitation.id === invitationId,
        );
        if (!pending) {
          throw new Refusal({
            code: 'not_found',
            message: `no pending invitation ${invitationId} in ${project.slug}`,
            param: 'invitationId',
          });
        }
        const state = pending.delivery?.state;
        if (state !== 'failed') {
          const where = {
            sent: `the invitation's mail to ${pending.email} was delivered`,
            queued: `the invitation's mail to ${pending.email} is still waiting to be delivered`,
            none: `no mail was sent for the invitation of ${pending.email} (the operator printed its link)`,
          }[state ?? 'none'];
          throw new Refusal({
            code: 'conflict',
            message: `${where}: only a mail not delivered is sent again`,
            param: 'invitationId',
          });
        }
        const made = newInvitation({
          project,
          email: pending.email,
          role: pending.role,
          invitedBy: pending.invitedBy,
          now: clock.now(),
        });
        const renewed = { ...made.invitation, id: pending.id, createdAt: pending.createdAt };
        await invitations.renewInvitation(renewed, clock.now());
        const delivery = await queueInvitationMail(
          sql,
          { outbox, origin },
          { token: made.token, invitation: renewed },
          project,
        );
        const inviterEmail = await invitationRecords(sql).inviterEmail(renewed);
        return {
          value: { ...renewed, delivery, inviterEmail },
          action: 'invitation_resent',
          target: `${pending.email} as ${pending.role}`,
        };
      });
      if (resent.ok) outbox.wake();
      return resent;
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
        await lockedAsOwner(sql, storage.kind, actor, project);
        const revoked = await createInvitationRecords(sql).revokeInvitation(project.id, invitationId);
        if (!revoked) {
          throw new Refusal({
            code: 'not_found',
            message: `no pending invitation ${invitationId} in ${project.slug}`,
            param: 'invitationId',
          });
        }
        const inviterEmail = await invitationRecords(sql).inviterEmail(revoked);
        // A mail still waiting went with it (migration 170); one delivered or given up stays.
        const delivery = (await createOutboxRecords(sql, storage.kind).latestFor([revoked.id])).get(
          revoked.id,
        );
        return {
          value: { ...revoked, inviterEmail, delivery: delivery ?? null },
          action: 'invitation_revoked',
          target: `${revoked.email} as ${revoked.role}`,
        };
      });
    },
  };
}
