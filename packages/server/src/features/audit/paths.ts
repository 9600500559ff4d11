import { type RouteSpec, projectRoute, route } from '../../http/route-spec.ts';

/** A project's activity (its audit trail) and its export. */
export const AUDIT_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/projects/:slug/activity', projectRoute('activityPage', 'viewer')),
  route('GET', '/dashboard/projects/:slug/activity.csv', projectRoute('activityCsv', 'viewer')),
];
