import { type RouteSpec, dashboardRoute, route } from '../../http/route-spec.ts';

/** One's access tokens for the management API. */
export const ACCESS_TOKEN_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/account/tokens', dashboardRoute('accessTokensPage', 'session')),
  route('POST', '/dashboard/account/tokens', dashboardRoute('createAccessToken', 'session', true)),
  route(
    'GET',
    '/dashboard/account/tokens/:tokenId/revoke',
    dashboardRoute('revokeAccessTokenPage', 'session'),
  ),
  route(
    'POST',
    '/dashboard/account/tokens/:tokenId/revoke',
    dashboardRoute('revokeAccessToken', 'session', true),
  ),
];
