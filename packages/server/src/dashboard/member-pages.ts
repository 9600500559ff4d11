import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import type { DashboardContext } from './context.ts';
import { projectPath } from './context.ts';
import { clearSessionCookie } from './session-cookie.ts';
import { membersView, removeMemberView } from './views/members.ts';

/** A project's members: the list; owners remove members (and, with invitations, add them). */
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

  return {
    async membersPage(request, reply) {
      const { project, role } = request.member!;
      const main = membersView({
        project,
        members: await storage.projects.members(project.id),
        me: { accountId: request.signedIn!.account.id, role },
        csrfToken: context.signedIn(request).csrfToken,
        flash: await flashes.take(request, projectPath(project, 'members')),
      });
      return context.page(request, reply, `Members · ${project.name}`, main);
    },
    async removeMemberPage(request, reply) {
      const project = context.memberProject(request);
      const main = removeMemberView(project, await pathMember(request), context.signedIn(request).csrfToken);
      return context.page(request, reply, `Remove a member · ${project.name}`, main);
    },
    async removeMember(request, reply) {
      const project = context.memberProject(request);
      const member = await pathMember(request);
      const page = projectPath(project, 'members');
      if ((await storage.projects.removeMember(member.accountId, project.id)) !== 'done') {
        await flashes.put(request, page, {
          problem: `${member.email} is the last owner of ${project.name}: make another member an owner first.`,
        });
        return context.back(reply, page);
      }
      const ended = await storage.accounts.removeSessions(member.accountId);
      request.log.info(
        {
          event: 'member.removed',
          project: project.slug,
          accountId: member.accountId,
          by: request.signedIn!.account.id,
          endedSessions: ended,
        },
        'member removed',
      );
      if (member.accountId === request.signedIn!.account.id) {
        clearSessionCookie(request, reply);
        return reply.redirect('/dashboard/sign-in?signedOut', 303);
      }
      await flashes.put(request, page, { notice: `${member.email} was removed; their sessions have ended.` });
      return context.back(reply, page);
    },
  };
}
