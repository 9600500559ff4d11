import { type RouteSpec, dashboardRoute, projectRoute, route } from '../../http/route-spec.ts';

/** The projects list, a project's overview, its name and its two-factor requirement. */
export const PROJECT_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard', dashboardRoute('projectsPage', 'session')),
  route('POST', '/dashboard/projects/:slug/two-factor', projectRoute('requireTwoFactor', 'owner', true)),
  route('GET', '/dashboard/projects/:slug', projectRoute('projectPage', 'viewer')),
  route('POST', '/dashboard/projects/:slug', projectRoute('renameProject', 'owner', true)),
];
