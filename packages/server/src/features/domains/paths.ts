import { type RouteSpec, projectRoute, route, siteRoute } from '../../http/route-spec.ts';

/** A project's custom domains; the docs sites on them (site hosts); the TLS proxy's question (any host). */
export const DOMAIN_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/projects/:slug/domains', projectRoute('domainsPage', 'viewer')),
  route('POST', '/dashboard/projects/:slug/domains', projectRoute('addDomain', 'owner', true)),
  route(
    'POST',
    '/dashboard/projects/:slug/domains/:hostname/check',
    projectRoute('checkDomain', 'owner', true),
  ),
  route(
    'POST',
    '/dashboard/projects/:slug/domains/:hostname/primary',
    projectRoute('makePrimary', 'owner', true),
  ),
  route(
    'GET',
    '/dashboard/projects/:slug/domains/:hostname/remove',
    projectRoute('removeDomainPage', 'owner'),
  ),
  route(
    'POST',
    '/dashboard/projects/:slug/domains/:hostname/remove',
    projectRoute('removeDomain', 'owner', true),
  ),
  route('GET', '/', siteRoute('getSiteDocs')),
  route('GET', '/docs/assets/:name', siteRoute('getSiteDocsAsset')),
  route('GET', '/*', siteRoute('siteNotFound')),
  route('GET', '/internal/tls/ask', {
    operationId: 'tlsAsk',
    access: 'public',
    rateLimited: true,
    addressBudget: 'tls',
    metricsLabel: 'other',
    host: 'internal',
  }),
];
