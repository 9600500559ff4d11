import { pageRoute, type RouteSpec, dashboardRoute, route } from '../../http/route-spec.ts';

/** The routes every page links to: the docs' own pages and files, the dashboard's files and its not-found page. */
export const SHELL_ROUTES: readonly RouteSpec[] = [
  route('GET', '/docs/assets/:name', pageRoute('getDocsAsset')),
  route('GET', '/docs/', pageRoute('redirectDocsSlash')),
  route('GET', '/docs/manage', pageRoute('getManageDocs')),
  route('GET', '/', pageRoute('redirectToDocs')),
  route('GET', '/dashboard/assets/:name', dashboardRoute('dashboardAsset', 'public')),
  route('GET', '/dashboard/*', dashboardRoute('dashboardNotFound', 'public')),
];
