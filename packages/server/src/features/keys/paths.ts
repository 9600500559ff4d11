import { type RouteSpec, projectRoute, route } from '../../http/route-spec.ts';

/** A project's API keys: create, edit, roll, revoke, unban. */
export const KEY_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/projects/:slug/keys', projectRoute('keysPage', 'viewer')),
  route('POST', '/dashboard/projects/:slug/keys', projectRoute('createKey', 'developer', true)),
  route('GET', '/dashboard/projects/:slug/keys/:keyId/revoke', projectRoute('revokePage', 'developer')),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/revoke', projectRoute('revokeKey', 'developer', true)),
  route('GET', '/dashboard/projects/:slug/keys/:keyId/edit', projectRoute('editKeyPage', 'developer')),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/edit', projectRoute('updateKey', 'developer', true)),
  route('GET', '/dashboard/projects/:slug/keys/:keyId/roll', projectRoute('rollPage', 'developer')),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/roll', projectRoute('rollKey', 'developer', true)),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/unban', projectRoute('unbanKey', 'owner', true)),
];
