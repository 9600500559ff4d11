import { type RouteSpec, dashboardRoute, projectRoute, route } from '../../http/route-spec.ts';

/** The members of a project and the invitations to join it. */
export const MEMBER_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/invitation', dashboardRoute('invitationPage', 'public')),
  route('POST', '/dashboard/invitation', dashboardRoute('acceptInvitation', 'public', true)),
  route('GET', '/dashboard/projects/:slug/members', projectRoute('membersPage', 'viewer')),
  route('POST', '/dashboard/projects/:slug/members/invite', projectRoute('inviteMember', 'owner', true)),
  route(
    'POST',
    '/dashboard/projects/:slug/members/:accountId/role',
    projectRoute('changeRole', 'owner', true),
  ),
  route(
    'POST',
    '/dashboard/projects/:slug/invitations/:invitationId/revoke',
    projectRoute('revokeInvitation', 'owner', true),
  ),
  route(
    'POST',
    '/dashboard/projects/:slug/invitations/:invitationId/resend',
    projectRoute('resendInvitation', 'owner', true),
  ),
  route(
    'GET',
    '/dashboard/projects/:slug/members/:accountId/remove',
    projectRoute('removeMemberPage', 'owner'),
  ),
  route(
    'POST',
    '/dashboard/projects/:slug/members/:accountId/remove',
    projectRoute('removeMember', 'owner', true),
  ),
];
