import { urlFor } from '../shared/urls.ts';
import { memberOf } from './page-roles.ts';
import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import { normalizeEmail } from '../identity/email.ts';
import { ApiError } from '../../errors.ts';
import { createMemberService, isRole } from './service.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import type { RevokedInvitation } from './member-records.ts';
import { dashboardActor } from '../identity/page-actor.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';

import { field } from '../../web/form-body.ts';
import { clearSessionCookie, signedInOf } from '../identity/session-cookie.ts';
import { membersView, removeMemberView } from './view.ts';

/** A project's members: the list; owners invite members by mail, change roles and remove members. */
export function memberPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, flashes } = context;
  const members = createMemberService({
    storage,
    clock: context.clock,
    outbox: context.outbox,
    limiter: context.limiter,
  });

  /** The member named in the path; 404 for anyone else. */
  const pathMember = async (request: FastifyRequest) => {
    const { accountId } = request.params as { accountId: string };
    const member = (await storage.projects.members(context.memberProject(request).id)).find(
      (candidate) => candidate.accountId === accountId,
    );
    if (!member) throw new ApiError('not_found', 'no such member of this project');
    return member;
  };

  /** The notice's words for the invitations a member's removal or demotion revoked. */
  const revokedWith = (revoked: RevokedInvitation[]) => {
    if (revoked.length === 0) return '';
    return revoked.length === 1
      ? ' The invitation they made was revoked.'
      : ` The ${revoked.length} invitations they made were revoked.`;
  };
  const lastOwner = (email: string, name: string) =>
    `${email} is the last owner of ${name}: make another member an owner first.`;

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
      if (!normalizeEmail(typed) || !isRole(role)) {
        const problem = !normalizeEmail(typed)
          ? `“${typed}” is not an email address.`
          : 'Choose a role: owner, developer or viewer.';
        await flashes.put(request, page, { problem, values: { email: typed, role } });
        return context.back(reply, page);
      }
      // The inviter never sees the link: only the mailbox's owner can open it.
      const outcome = await members.invite(
        dashboardActor(request),
        project.slug,
        { email: typed, role },
        context.linkOrigin(request),
      );
      if (!outcome.ok) {
        const problem = `${outcome.problem.message}.`;
        await flashes.put(request, page, { problem, values: { email: typed, role } });
        return context.back(reply, page);
      }
      const invitation = outcome.value;
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
      const until = new Date(invitation.expiresAt).toISOString().slice(0, 10);
      await flashes.put(request, page, {
        notice: `Invitation sent to ${invitation.email} (${role}). Its link works once, until ${until}.`,
      });
      return context.back(reply, page);
    },
    async revokeInvitation(request, reply) {
      const project = context.memberProject(request);
      const { invitationId } = request.params as { invitationId: string };
      valueOrThrow(await members.revokeInvitation(dashboardActor(request), project.slug, invitationId));
      const page = urlFor('membersPage', { slug: project.slug });
      await flashes.put(request, page, { notice: 'The invitation was revoked: its link no longer works.' });
      return context.back(reply, page);
    },
    async resendInvitation(request, reply) {
      const project = context.memberProject(request);
      const { invitationId } = request.params as { invitationId: string };
      const page = urlFor('membersPage', { slug: project.slug });
      const resent = await members.resendInvitation(
        dashboardActor(request),
        project.slug,
        invitationId,
        context.linkOrigin(request),
      );
      if (!resent.ok && resent.problem.code === 'not_found') valueOrThrow(resent);
      await flashes.put(
        request,
        page,
        resent.ok
          ? {
              notice: `Invitation sent again to ${resent.value.email}, with a new link that works once, until ${new Date(resent.value.expiresAt).toISOString().slice(0, 10)}.`,
            }
          : { problem: `${resent.problem.message}.` },
      );
      request.log.info(
        {
          event: 'invitation.resent',
          invitationId,
          project: project.slug,
          outcome: resent.ok ? 'done' : resent.problem.code,
          by: signedInOf(request).account.id,
        },
        'invitation sent again',
      );
      return context.back(reply, page);
    },
    async changeRole(request, reply) {
      const project = context.memberProject(request);
      const member = await pathMember(request);
      const page = urlFor('membersPage', { slug: project.slug });
      const role = field(request.body, 'role');
      if (!isRole(role))
        throw new ApiError('invalid_parameter', 'the role must be owner, developer or viewer');
      const changed = await members.changeRole(dashboardActor(request), project.slug, member.accountId, role);
      if (!changed.ok && changed.problem.code !== 'conflict') valueOrThrow(changed);
      await flashes.put(
        request,
        page,
        changed.ok
          ? {
              notice: `${member.email} is now ${role === 'owner' ? 'an' : 'a'} ${role}.${revokedWith(changed.value.revoked)}`,
            }
          : { problem: lastOwner(member.email, project.name) },
      );
      request.log.info(
        {
          event: 'member.role_changed',
          project: project.slug,
          accountId: member.accountId,
          role,
          outcome: changed.ok ? 'done' : 'last_owner',
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
      const removed = await members.remove(dashboardActor(request), project.slug, member.accountId);
      if (!removed.ok) {
        if (removed.problem.code !== 'conflict') valueOrThrow(removed);
        await flashes.put(request, page, { problem: lastOwner(member.email, project.name) });
        return context.back(reply, page);
      }
      const { revoked } = removed.value;
      request.log.info(
        {
          event: 'member.removed',
          project: project.slug,
          accountId: member.accountId,
          by: signedInOf(request).account.id,
          revokedInvitations: revoked.map((invitation) => invitation.id),
        },
        'member removed',
      );
      if (member.accountId === signedInOf(request).account.id) {
        clearSessionCookie(request, reply);
        return reply.redirect(`${urlFor('signInPage')}?signedOut`, 303);
      }
      await flashes.put(request, page, {
        notice: `${member.email} was removed; their sessions have ended.${revokedWith(revoked)}`,
      });
      return context.back(reply, page);
    },
  };
}
