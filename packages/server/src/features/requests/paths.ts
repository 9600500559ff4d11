import { type RouteSpec, projectRoute, route } from '../../http/route-spec.ts';

/** A project's request log and usage, and their exports. */
export const REQUEST_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/projects/:slug/requests', projectRoute('requestsPage', 'viewer')),
  route('GET', '/dashboard/projects/:slug/usage.csv', projectRoute('usageCsv', 'viewer')),
  route('GET', '/dashboard/projects/:slug/requests.csv', projectRoute('requestsCsv', 'viewer')),
  route('GET', '/dashboard/projects/:slug/requests.ndjson', projectRoute('requestsNdjson', 'viewer')),
  route('GET', '/dashboard/projects/:slug/requests/:requestRowId', projectRoute('requestPage', 'viewer')),
];
