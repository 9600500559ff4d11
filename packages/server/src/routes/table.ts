import type { FastifyInstance, HTTPMethods, RouteHandlerMethod } from 'fastify';
import { preflight } from '../http/cors.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import type { AddressBudget } from '../ratelimit/address-budgets.ts';
import { deprecationOf } from './deprecation.ts';
import type { Role } from '../features/members/member-records.ts';
import type { RouteConfig } from '../http/route-config.ts';
import type { OtherMethods } from '../http/other-methods.ts';
import { refuseOtherMethod } from '../http/not-found.ts';
import type { RouteHostKind } from '../http/host-kind.ts';
// Not an ESM import of node:http: its namespace loads Node's fetch (65 ms, 14 MB at start).
const { METHODS } = process.getBuiltinModule('node:http');

/** What the router matches and what the guard, headers and metrics read from it. */
export interface RouteSpec {
  method: string;
  /** In the router's form: `/v1/pets/:petId`. */
  url: string;
  config: RouteConfig;
}

/** One route: its spec and the handler that answers it. */
export interface RouteDefinition extends RouteSpec {
  handler: RouteHandlerMethod;
}

/** A handler for each operationId of the contract. */
export type OperationHandlers = Record<string, RouteHandlerMethod>;

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface ContractOperation {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  deprecated?: boolean;
  'x-deprecated-at'?: string;
  'x-sunset'?: string;
  'x-successor'?: string;
}

/**
 * Public operations need no key but are limited per client address, each against the budget of those
 * who call it (ratelimit/address-budgets.ts): probes and scrapes never share a bucket with page views.
 */
const PUBLIC_BUDGETS: Record<string, AddressBudget> = {
  getHealth: 'monitoring',
  getReadiness: 'monitoring',
  getMetrics: 'monitoring',
  getDocs: 'public',
  getOpenApiDocument: 'public',
};

function publicBudget(operationId: string): AddressBudget {
  const budget = PUBLIC_BUDGETS[operationId];
  if (!budget) throw new Error(`public operation ${operationId} needs an address budget in PUBLIC_BUDGETS`);
  return budget;
}

/** The path part of a server URL: `/v1` for `/v1` or `https://host/v1`, `` for `/`. */
function basePath(serverUrl: string): string {
  return new URL(serverUrl, 'http://localhost/').pathname.replace(/\/$/, '');
}

/** `/pets/{petId}` under `/v1` → `/v1/pets/:petId`. */
function routerUrl(prefix: string, template: string): string {
  return `${prefix}${template.replace(/\{([^}]+)\}/g, ':$1')}`;
}

/**
 * The contract's operations as route specs: each path under its own `servers` (the public endpoints
 * use `/`) or the document's first (`/v1`), with the operation's security and deprecation.
 */
export function contractOperations(contract: OpenApiDocument): RouteSpec[] {
  const found: (RouteSpec & { operation: ContractOperation })[] = [];
  for (const [template, item] of Object.entries(contract.paths)) {
    const servers = (item.servers as { url: string }[] | undefined) ?? contract.servers;
    const prefix = basePath(servers[0]!.url);
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as ContractOperation | undefined;
      if (!operation) continue;
      const access =
        (operation.security ?? (contract.security as unknown[])).length === 0 ? 'public' : 'apiKey';
      const config: RouteConfig = {
        operationId: operation.operationId,
        access,
        rateLimited: true,
        addressBudget: access === 'apiKey' ? 'api' : publicBudget(operation.operationId),
        metricsLabel: access === 'apiKey' ? operation.operationId : 'other',
      };
      found.push({ method: method.toUpperCase(), url: routerUrl(prefix, template), config, operation });
    }
  }

  for (const route of found) {
    const { operation } = route;
    if (!operation.deprecated) continue;
    const successor = found.find((candidate) => candidate.config.operationId === operation['x-successor']);
    if (!operation['x-deprecated-at'] || !operation['x-sunset'] || !successor) {
      throw new Error(
        `deprecated operation ${operation.operationId} needs x-deprecated-at, x-sunset and x-successor`,
      );
    }
    route.config.deprecation = deprecationOf({
      operationId: operation.operationId,
      deprecatedAt: operation['x-deprecated-at'],
      sunset: operation['x-sunset'],
      documentation: `/docs#tag/${operation.tags?.[0] ?? 'Other'}/operation/${operation.operationId}`,
      successorUrl: successor.url,
      successorLabel: `${successor.method} ${successor.url}`,
      label: `${route.method} ${route.url.replace(/:([^/]+)/g, '{$1}')}`,
    });
  }
  return found.map(({ method, url, config }) => ({ method, url, config }));
}

/**
 * The contract's operations as routes, each with its handler. Every operation needs a handler and every
 * handler an operation, or start-up fails.
 */
export function contractRoutes(contract: OpenApiDocument, handlers: OperationHandlers): RouteDefinition[] {
  const specs = contractOperations(contract);
  const unknown = Object.keys(handlers).filter((id) => !specs.some((spec) => spec.config.operationId === id));
  if (unknown.length > 0)
    throw new Error(`handlers for operations the contract lacks: ${unknown.join(', ')}`);
  return specs.map((spec) => {
    const handler = handlers[spec.config.operationId];
    if (!handler) throw new Error(`no handler for the contract's operation ${spec.config.operationId}`);
    return { ...spec, handler };
  });
}

/** Every method Node's parser accepts except CONNECT (a tunnel, never routed), so each gets a 405. */
export const ALL_METHODS = METHODS.filter((method) => method !== 'CONNECT');

/** Lets the app route every method of ALL_METHODS (Fastify knows only the common ones by default). */
export function supportAllMethods(app: FastifyInstance): void {
  for (const method of ALL_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
}

/** The methods a path answers, as `Allow` lists them: HEAD comes with GET, OPTIONS with every path. */
export function allowedMethods(routes: readonly RouteSpec[]): string[] {
  const methods = routes.map((route) => route.method);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return [...methods, 'OPTIONS'];
}

/**
 * `OPTIONS` on a known path: public and not rate-limited, since a browser sends it before a cross-origin
 * call without the key, and it answers from memory (see http/cors.ts).
 */
const PREFLIGHT: RouteConfig = {
  operationId: 'preflight',
  access: 'public',
  rateLimited: false,
  metricsLabel: 'other',
};

/**
 * The methods routes may use (the contract's operations and the dashboard's forms use GET and POST,
 * the management API DELETE and PATCH too; HEAD comes with GET). A method no route uses reaches no route of the router, so its 405 is decided
 * after the router's 404 (`otherMethods`); these have routes a 405 must win against (a
 * `GET /dashboard/sign-out` would otherwise be `GET /dashboard/:slug`), so they get 405 routes. A route
 * with any other method is refused at start-up, naming this list.
 */
const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Registers every route, and for each path its `OPTIONS` route and 405 answers with `Allow` for every
 * other method, under the same access rules as the path's own routes (so a 405 never tells a caller
 * without a key more than a 401 would): a route for the routed methods, `otherMethods` for the rest.
 */
export function registerRoutes(
  app: FastifyInstance,
  routes: readonly RouteDefinition[],
  otherMethods: OtherMethods,
): void {
  supportAllMethods(app);
  for (const path of routedPaths(routes)) {
    for (const hostKind of path.hostKinds) {
      registerPath(app, path, { hostKind });
      otherMethods.add(path.url, hostKind, path.refusal);
    }
  }
}

/** Every kind of host a request can come to (http/host-kind.ts). */
const HOST_KINDS = ['api', 'site', 'none'] as const;

/** What one path answers: its routes, its OPTIONS preflight and the 405 of every other method. */
export interface RoutedPath {
  url: string;
  /** The kinds of host it is served on (`any`: all of them). */
  hostKinds: readonly RouteHostKind[];
  routes: readonly RouteDefinition[];
  /** `OPTIONS`: public, not limited, with `Allow` (http/cors.ts). */
  preflight: RouteDefinition;
  /** The config a method the path lacks is guarded, counted and answered 405 with. */
  refusal: RouteConfig;
}

/**
 * The routes grouped by path and host, each group with its preflight and 405 answer: what the app's
 * router registers (registerRoutes) and what an area registered on its first request routes by
 * (routes/area-router.ts). A path's routes must share one access rule.
 */
export function routedPaths(routes: readonly RouteDefinition[]): RoutedPath[] {
  const unknown = routes.find((route) => !ROUTED_METHODS.includes(route.method));
  if (unknown) throw new Error(`${unknown.method} ${unknown.url}: add ${unknown.method} to ROUTED_METHODS`);
  return [...Map.groupBy(routes, (route) => `${route.config.host ?? 'api'} ${route.url}`).values()].map(
    (sameUrl) => {
      const [first] = sameUrl;
      const { url } = first!;
      if (sameUrl.some((route) => route.config.access !== first!.config.access)) {
        throw new Error(`the routes of ${url} must share one access rule`);
      }
      const host = first!.config.host ?? 'api';
      return {
        url,
        hostKinds: host === 'any' ? HOST_KINDS : [host],
        routes: sameUrl,
        preflight: {
          method: 'OPTIONS',
          url,
          config: { ...PREFLIGHT, host: first!.config.host },
          handler: preflight(allowedMethods(sameUrl)),
        },
        refusal: methodNotAllowed(sameUrl),
      };
    },
  );
}

/** One path's routes on one kind of host, with its OPTIONS route and 405 route. */
function registerPath(app: FastifyInstance, path: RoutedPath, constraints: { hostKind: string }): void {
  const { url } = path;
  for (const route of [...path.routes, path.preflight]) {
    app.route({
      method: route.method as HTTPMethods,
      url,
      constraints,
      config: route.config as never,
      handler: route.handler,
    });
  }
  const allow = allowedMethods(path.routes);
  const others = ROUTED_METHODS.filter((method) => !allow.includes(method));
  if (others.length === 0) return;
  app.route({
    method: others as HTTPMethods[],
    url,
    constraints,
    config: path.refusal as never,
    preParsing: refuseOtherMethod,
    handler: refuseOtherMethod,
  });
}

/** The config a method the path lacks is guarded, counted and answered with. */
function methodNotAllowed(sameUrl: readonly RouteDefinition[]): RouteConfig {
  const { config: first, url } = sameUrl[0]!;
  return {
    operationId: 'methodNotAllowed',
    access: first.access,
    rateLimited: first.rateLimited,
    addressBudget: first.addressBudget,
    metricsLabel: 'other',
    host: first.host,
    htmlErrors: first.htmlErrors,
    notAllowed: { allow: allowedMethods(sameUrl).join(', '), path: url.replace(/:([^/]+)/g, '{$1}') },
  };
}

const dashboard = (operationId: string, access: 'public' | 'session', csrf = false): RouteConfig => ({
  operationId,
  access,
  // Counted per client address like the docs pages (sign-in has its own, tighter limits too).
  rateLimited: true,
  addressBudget: 'public',
  metricsLabel: 'dashboard',
  htmlErrors: true,
  csrf,
});

/** A page or form of one project (`:slug`), open to members holding at least `role`. */
const projectRoute = (operationId: string, role: Role, csrf = false): RouteConfig => ({
  ...dashboard(operationId, 'session', csrf),
  role,
});

const site = (operationId: string): RouteConfig => ({
  operationId,
  access: 'public',
  rateLimited: true,
  addressBudget: 'public',
  metricsLabel: 'site',
  host: 'site',
  htmlErrors: true,
});

const route = (method: string, url: string, config: RouteConfig): RouteSpec => ({ method, url, config });

/**
 * Every route outside the contract, declared here and nowhere else: the docs page's files, the
 * dashboard, the projects' docs sites (on site hosts) and the TLS proxy's question (on any host).
 * Their handlers come from their modules, by operationId.
 */
export const NON_CONTRACT_ROUTES: readonly RouteSpec[] = [
  route('GET', '/docs/assets/:name', {
    operationId: 'getDocsAsset',
    access: 'public',
    rateLimited: true,
    addressBudget: 'public',
    metricsLabel: 'other',
  }),
  route('GET', '/docs/', {
    operationId: 'redirectDocsSlash',
    access: 'public',
    rateLimited: true,
    addressBudget: 'public',
    metricsLabel: 'other',
  }),
  route('GET', '/docs/manage', {
    operationId: 'getManageDocs',
    access: 'public',
    rateLimited: true,
    addressBudget: 'public',
    metricsLabel: 'other',
  }),
  route('GET', '/', {
    operationId: 'redirectToDocs',
    access: 'public',
    rateLimited: true,
    addressBudget: 'public',
    metricsLabel: 'other',
  }),
  route('GET', '/dashboard/sign-in', dashboard('signInPage', 'public')),
  route('POST', '/dashboard/sign-in', dashboard('signIn', 'public', true)),
  route('POST', '/dashboard/sign-out', dashboard('signOut', 'session', true)),
  route('GET', '/dashboard/invitation', dashboard('invitationPage', 'public')),
  route('POST', '/dashboard/invitation', dashboard('acceptInvitation', 'public', true)),
  route('GET', '/dashboard/forgot-password', dashboard('forgotPasswordPage', 'public')),
  route('POST', '/dashboard/forgot-password', dashboard('requestPasswordReset', 'public', true)),
  route('GET', '/dashboard/reset-password', dashboard('resetPasswordPage', 'public')),
  route('POST', '/dashboard/reset-password', dashboard('resetPassword', 'public', true)),
  route('GET', '/dashboard', dashboard('projectsPage', 'session')),
  route('GET', '/dashboard/account', dashboard('accountPage', 'session')),
  route('POST', '/dashboard/account/password', dashboard('changePassword', 'session', true)),
  route('POST', '/dashboard/account/sign-out-everywhere', dashboard('signOutEverywhere', 'session', true)),
  route('GET', '/dashboard/sign-in/two-factor', dashboard('twoFactorSignInPage', 'public')),
  route('POST', '/dashboard/sign-in/two-factor', dashboard('twoFactorSignIn', 'public', true)),
  route('GET', '/dashboard/account/two-factor', dashboard('twoFactorPage', 'session')),
  route('POST', '/dashboard/account/two-factor', dashboard('enableTwoFactor', 'session', true)),
  route('POST', '/dashboard/account/two-factor/disable', dashboard('disableTwoFactor', 'session', true)),
  route(
    'POST',
    '/dashboard/account/two-factor/recovery-codes',
    dashboard('regenerateRecoveryCodes', 'session', true),
  ),
  route('POST', '/dashboard/projects/:slug/two-factor', projectRoute('requireTwoFactor', 'owner', true)),
  route(
    'POST',
    '/dashboard/account/passkeys/options',
    dashboard('passkeyRegistrationOptions', 'session', true),
  ),
  route('POST', '/dashboard/account/passkeys', dashboard('addPasskey', 'session', true)),
  route('POST', '/dashboard/account/passkeys/remove', dashboard('removePasskey', 'session', true)),
  route('POST', '/dashboard/sign-in/passkey/options', dashboard('passkeySignInOptions', 'public', true)),
  route('POST', '/dashboard/sign-in/passkey', dashboard('passkeySignIn', 'public', true)),
  route(
    'POST',
    '/dashboard/sign-in/two-factor/passkey/options',
    dashboard('twoFactorPasskeyOptions', 'public', true),
  ),
  route('POST', '/dashboard/sign-in/two-factor/passkey', dashboard('twoFactorPasskeySignIn', 'public', true)),
  route('GET', '/dashboard/account/tokens', dashboard('accessTokensPage', 'session')),
  route('POST', '/dashboard/account/tokens', dashboard('createAccessToken', 'session', true)),
  route('GET', '/dashboard/account/tokens/:tokenId/revoke', dashboard('revokeAccessTokenPage', 'session')),
  route('POST', '/dashboard/account/tokens/:tokenId/revoke', dashboard('revokeAccessToken', 'session', true)),
  route('GET', '/dashboard/projects/:slug', projectRoute('projectPage', 'viewer')),
  route('POST', '/dashboard/projects/:slug', projectRoute('renameProject', 'owner', true)),
  route('GET', '/dashboard/projects/:slug/keys', projectRoute('keysPage', 'viewer')),
  route('POST', '/dashboard/projects/:slug/keys', projectRoute('createKey', 'developer', true)),
  route('GET', '/dashboard/projects/:slug/keys/:keyId/revoke', projectRoute('revokePage', 'developer')),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/revoke', projectRoute('revokeKey', 'developer', true)),
  route('GET', '/dashboard/projects/:slug/keys/:keyId/edit', projectRoute('editKeyPage', 'developer')),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/edit', projectRoute('updateKey', 'developer', true)),
  route('GET', '/dashboard/projects/:slug/keys/:keyId/roll', projectRoute('rollPage', 'developer')),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/roll', projectRoute('rollKey', 'developer', true)),
  route('POST', '/dashboard/projects/:slug/keys/:keyId/unban', projectRoute('unbanKey', 'owner', true)),
  route('GET', '/dashboard/projects/:slug/requests', projectRoute('requestsPage', 'viewer')),
  route('GET', '/dashboard/projects/:slug/usage.csv', projectRoute('usageCsv', 'viewer')),
  route('GET', '/dashboard/projects/:slug/requests.csv', projectRoute('requestsCsv', 'viewer')),
  route('GET', '/dashboard/projects/:slug/requests.ndjson', projectRoute('requestsNdjson', 'viewer')),
  route('GET', '/dashboard/projects/:slug/activity', projectRoute('activityPage', 'viewer')),
  route('GET', '/dashboard/projects/:slug/activity.csv', projectRoute('activityCsv', 'viewer')),
  route('GET', '/dashboard/projects/:slug/requests/:requestRowId', projectRoute('requestPage', 'viewer')),
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
  route('GET', '/dashboard/assets/:name', dashboard('dashboardAsset', 'public')),
  route('GET', '/dashboard/*', dashboard('dashboardNotFound', 'public')),
  route('GET', '/', site('getSiteDocs')),
  route('GET', '/docs/assets/:name', site('getSiteDocsAsset')),
  route('GET', '/*', site('siteNotFound')),
  route('GET', '/internal/tls/ask', {
    operationId: 'tlsAsk',
    access: 'public',
    rateLimited: true,
    addressBudget: 'tls',
    metricsLabel: 'other',
    host: 'internal',
  }),
];

/**
 * Routes with their handlers: a route without a handler, or the reverse, fails start-up (or, for an
 * area registered on its first request, that request).
 */
export function withHandlers(specs: readonly RouteSpec[], handlers: OperationHandlers): RouteDefinition[] {
  const unknown = Object.keys(handlers).filter((id) => !specs.some((spec) => spec.config.operationId === id));
  if (unknown.length > 0) throw new Error(`handlers for operations no route has: ${unknown.join(', ')}`);
  return specs.map((spec) => {
    const handler = handlers[spec.config.operationId];
    if (!handler) throw new Error(`no handler for the operation ${spec.config.operationId}`);
    return { ...spec, handler };
  });
}
