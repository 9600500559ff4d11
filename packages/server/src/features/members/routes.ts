import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Role } from './member-records.ts';
import { tokenActorOf } from '../access-tokens/check.ts';
import { pageQuery, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { invitationJson, memberJson, pendingJson } from './json.ts';
import { INVITATION_PAGE, type MemberService } from './service.ts';

/** The management API's member and invitation operations (openapi/manage.yaml, tag Members). */
export function memberRoutes(
  members: MemberService,
  /** Where invitation links point: the configured origin, else the dashboard this request reached. */
  linkOrigin: (request: FastifyRequest) => string,
): Record<string, RouteHandlerMethod> {
  return {
    async changeMemberRole(request, reply) {
      const { slug, memberId } = request.params as { slug: string; memberId: string };
      // The contract's check has run: one of the roles.
      const { role } = request.body as { role: Role };
      const changed = valueOrThrow(await members.changeRole(tokenActorOf(request), slug, memberId, role));
      return sendJson(reply, 200, memberJson({ ...changed.member, role }));
    },
    async removeMember(request, reply) {
      const { slug, memberId } = request.params as { slug: string; memberId: string };
      const removed = valueOrThrow(await members.remove(tokenActorOf(request), slug, memberId));
      request.log.info(
        {
          event: 'member.removed',
          project: slug,
          accountId: memberId,
          revokedInvitations: removed.revoked.map((invitation) => invitation.id),
        },
        'member removed',
      );
      return sendJson(reply, 200, memberJson(removed.member));
    },
    async listInvitations(request, reply) {
      const { slug } = request.params as { slug: string };
      const page = pageQuery(request.query as Record<string, unknown>, INVITATION_PAGE.maxLimit);
      const listed = valueOrThrow(await members.invitations(tokenActorOf(request), slug, page));
      return sendJson(reply, 200, { ...listed, data: listed.data.map(pendingJson) });
    },
    async createInvitation(request, reply) {
      const { slug } = request.params as { slug: string };
      // The contract's check has run: an address of at most 254 characters and one of the roles.
      const { email, role } = request.body as { email: string; role: Role };
      const actor = tokenActorOf(request);
      const invitation = valueOrThrow(
        await members.invite(actor, slug, { email, role }, linkOrigin(request)),
      );
      request.log.info(
        {
          event: 'invitation.created',
          invitationId: invitation.id,
          project: slug,
          role,
          by: actor.accountId,
        },
        'invitation created',
      );
      return sendJson(reply, 201, invitationJson(invitation, { id: actor.accountId, email: actor.email }));
    },
    async resendInvitation(request, reply) {
      const { slug, invitationId } = request.params as { slug: string; invitationId: string };
      const actor = tokenActorOf(request);
      const resent = valueOrThrow(
        await members.resendInvitation(actor, slug, invitationId, linkOrigin(request)),
      );
      request.log.info(
        { event: 'invitation.resent', invitationId, project: slug, by: actor.accountId },
        'invitation sent again',
      );
      return sendJson(reply, 200, pendingJson(resent));
    },
    async revokeInvitation(request, reply) {
      const { slug, invitationId } = request.params as { slug: string; invitationId: string };
      const revoked = valueOrThrow(await members.revokeInvitation(tokenActorOf(request), slug, invitationId));
      return sendJson(reply, 200, pendingJson(revoked));
    },
  };
}
