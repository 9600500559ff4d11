import { urlFor } from '../routes/urls.ts';
import { memberOf } from './roles.ts';
import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import { emailProblem, normalizeEmail } from '../accounts/email.ts';
import { INVITATION_LIMITS, inviteByMail } from '../accounts/invitations.ts';
import { ApiError } from '../errors.ts';
import { type RevokedInvitation, type Role, ROLES } from '../storage/member-records.ts';
import type { DashboardContext } from './context.ts';

import { field } from '../web/form-body.ts';
import { clearSessionCookie, signedInOf } from './session-cookie.ts';
import { membersView, removeMemberView } from './views/members.ts';

const isRole = (text: string): text is Role => (ROLES as readonly string[]).includes(text);

/** A project's members: the list; owners invite members by mail, change roles and remove members. */
export function memberPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, flashes } = context;

  /** The member named in the path; 404 for anyone else. */
  const pathMember = async (request: FastifyRequest) => {
    const { accountId } = request.params as { accountId: string };
    const member = (await storage.projects.members(context.memberProject(request).id)).find(
      (candidate) => candidate.accountId === accountId,
    );
    if (!member) throw new ApiError('not_found', 'no such member of this project');
    return member;
  };

  /** Records the invitations a member's removal or demotion revoked; says so in the notice. */
  const revokedWith = async (request: FastifyRequest, revoked: RevokedInvitation[], maker: string) => {
    for (const invitation of revoked) {
      await context.audit(
        request,
        'invitation_revoked',
        `${invitation.email} as ${invitation.role} (made by ${maker}, no longer an owner)`,
      );
    }
    if (revoked.length === 0) return '';
    return revoked.length === 1
      ? ' The invitation they made was revoked.'
      : ` The ${revoked.length} invitations they made were revoked.`;
  };

  return {
    async membersPage(request, reply) {
      const { project, role } = memberOf(request);
      const main = membersView({
        project,
        members: await storage.projects.members(project.id),
        invitations:
          role === 'owner' ? await storage.projects.pendingInvitations(project.id, context.clock.now()) : [],
        me: { accountId: signedInOf(request).account.id, role },
        csrfToken: context.signedIn(request).csrfToken,
        flash: await flashes.take(request, urlFor('membersPage', { slug: project.slug })),
      });
      return context.page(request, reply, `Members · ${project.name}`, main);
    },
    async inviteMember(request, reply) {
      const project = context.memberProject(request);
      const page = urlFor('membersPage', { slug: project.slug });
      const typed = field(request.body, 'email');
      const role = field(request.body, 'role');
      const email = normalizeEmail(typed);
      const members = await storage.projects.members(project.id);
      const throttle = async () => {
        const decision = await context.limiter.check({
          bucket: `invitations:${project.id}`,
          ...INVITATION_LIMITS,
        });
        return decision.allowed
          ? undefined
          : `${project.name} has sent many invitations: try again in ${decision.retryAfterSeconds ?? 60} seconds.`;
      };
      const problem = !email
        ? `“${typed}” is not an email address.`
        : !isRole(role)
          ? 'Choose a role: owner, developer or viewer.'
          : members.some((member) => member.email === email)
            ? `${email} is a member already.`
            : (emailProblem(email)?.concat('.') ?? (await throttle()));
      if (problem || !email || !isRole(role)) {
        await flashes.put(request, page, { problem, values: { email: typed, role } });
        return context.back(reply, page);
      }
      // The inviter never sees the link: only the mailbox's owner can open it.
      const invitation = await inviteByMail(
        { projects: storage.projects, outbox: context.outbox },
        { project, email, role, invitedBy: signedInOf(request).account.id, now: context.clock.now() },
        context.linkOrigin(request),
      );
      request.log.info(
        {
          event: 'invitation.created',
          invitationId: invitation.id,
          project: project.slug,
          role,
          by: signedInOf(request).account.id,
        },
        'invitation created',
      );
      await context.audit(request, 'invitation_created', `${email} as ${role}`);
      const until = new Date(invitation.expiresAt).toISOString().slice(0, 10);
      await flashes.put(request, page, {
        notice: `Invitation sent to ${email} (${role}). Its link works once, until ${until}.`,
      });
      return context.back(reply, page);
    },
    async revokeInvitation(request, reply) {
      const project = context.memberProject(request);
      const { invitationId } = request.params as { invitationId: string };
      const revoked = await storage.projects.revokeInvitation(project.id, invitationId);
      if (!revoked) throw new ApiError('not_found', 'no such pending invitation in this project');
      await context.audit(request, 'invitation_revoked', `${revoked.email} as ${revoked.role}`);
      const page = urlFor('membersPage', { slug: project.slug });
      await flashes.put(request, page, { notice: 'The invitation was revoked: its link no longer works.' });
      return context.back(reply, page);
    },
    async changeRole(request, reply) {
      const project = context.memberProject(request);
      const member = await pathMember(request);
      const page = urlFor('membersPage', { slug: project.slug });
      const role = field(request.body, 'role');
      if (!isRole(role))
        throw new ApiError('invalid_parameter', 'the role must be owner, developer or viewer');
      const { outcome: changed, revoked } = await storage.projects.setRole(
        member.accountId,
        project.id,
        role,
      );
      if (changed === 'done')
        await context.audit(request, 'role_changed', `${member.email}: ${member.role} → ${role}`);
      const alsoRevoked = await revokedWith(request, revoked, member.email);
      await flashes.put(
        request,
        page,
        changed === 'done'
          ? { notice: `${member.email} is now ${role === 'owner' ? 'an' : 'a'} ${role}.${alsoRevoked}` }
          : {
              problem: `${member.email} is the last owner of ${project.name}: make another member an owner first.`,
            },
      );
      request.log.info(
        {
          event: 'member.role_changed',
          project: project.slug,
          accountId: member.accountId,
          role,
          outcome: changed,
          by: signedInOf(request).account.id,
        },
        'member role changed',
      );
      return context.back(reply, page);
    },
    async removeMemberPage(request, reply) {
      const project = context.memberProject(request);
      const member = await pathMember(request);
      const invitations = (await storage.projects.pendingInvitations(project.id, context.clock.now())).filter(
        (invitation) => invitation.invitedBy === member.accountId,
      );
      const main = removeMemberView(project, member, invitations, context.signedIn(request).csrfToken);
      return context.page(request, reply, `Remove a member · ${project.name}`, main);
    },
    async removeMember(request, reply) {
      const project = context.memberProject(request);
      const member = await pathMember(request);
      const page = urlFor('membersPage', { slug: project.slug });
      const { outcome, revoked } = await storage.projects.removeMember(member.accountId, project.id);
      if (outcome !== 'done') {
        await flashes.put(request, page, {
          problem: `${member.email} is the last owner of ${project.name}: make another member an owner first.`,
        });
        return context.back(reply, page);
      }
      const ended = await storage.accounts.removeSessions(member.accountId);
      await context.audit(request, 'member_removed', `${member.email} (${member.role})`);
      const alsoRevoked = await revokedWith(request, revoked, member.email);
      request.log.info(
        {
          event: 'member.removed',
          project: project.slug,
          accountId: member.accountId,
          by: signedInOf(request).account.id,
          endedSessions: ended,
          revokedInvitations: revoked.map((invitation) => invitation.id),
        },
        'member removed',
      );
      if (member.accountId === signedInOf(request).account.id) {
        clearSessionCookie(request, reply);
        return reply.redirect(`${urlFor('signInPage')}?signedOut`, 303);
      }
      await flashes.put(request, page, {
        notice: `${member.email} was removed; their sessions have ended.${alsoRevoked}`,
      });
      return context.back(reply, page);
    },
  };
}
