import type { FastifyInstance, HTTPMethods } from 'fastify';
import { preflight } from '../http/cors.ts';
import type { RouteHostKind } from '../http/host-kind.ts';
import { refuseOtherMethod } from '../http/not-found.ts';
import type { OtherMethods } from '../http/other-methods.ts';
import type { RouteConfig } from '../http/route-config.ts';
import type { OperationHandlers, RouteDefinition, RouteSpec } from '../http/route-spec.ts';

// The routes are declared where they belong: the contract's by the contract, the rest by their features.
export { contractOperations, contractRoutes } from '../http/contract-routes.ts';
export type { OperationHandlers, RouteDefinition, RouteSpec } from '../http/route-spec.ts';
export { NON_CONTRACT_ROUTES } from '../features/shared/routes.ts';

// Not an ESM import of node:http: its namespace loads Node's fetch (65 ms, 14 MB at start).
const { METHODS } = process.getBuiltinModule('node:http');

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
