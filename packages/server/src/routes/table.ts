import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyRequest, HTTPMethods, RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import { deprecationOf } from './deprecation.ts';
import type { RouteConfig } from './route-config.ts';

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
        rateLimited: access === 'apiKey',
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

/** The methods a path answers, as `Allow` lists them: HEAD comes with GET. */
export function allowedMethods(routes: readonly RouteSpec[]): string[] {
  const methods = routes.map((route) => route.method);
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods;
}

/**
 * Registers every route, and for each path one more route answering every other method with 405 and
 * `Allow`, under the same access rules as the path's own routes (so a 405 never tells a caller without
 * a key more than a 401 would).
 */
export function registerRoutes(app: FastifyInstance, routes: readonly RouteDefinition[]): void {
  for (const method of ALL_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
  const byUrl = Map.groupBy(routes, (route) => route.url);
  for (const [url, sameUrl] of byUrl) {
    for (const route of sameUrl) {
      app.route({ method: route.method as HTTPMethods, url, config: route.config, handler: route.handler });
    }
    const [first] = sameUrl;
    if (sameUrl.some((route) => route.config.access !== first!.config.access)) {
      throw new Error(`the routes of ${url} must share one access rule`);
    }
    const allow = allowedMethods(sameUrl);
    const others = ALL_METHODS.filter((method) => !allow.includes(method));
    const config: RouteConfig = {
      operationId: 'methodNotAllowed',
      access: first!.config.access,
      rateLimited: first!.config.rateLimited,
      metricsLabel: 'other',
    };
    const path = url.replace(/:([^/]+)/g, '{$1}');
    const message = (method: string) => `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`;
    const refuse = async (request: FastifyRequest) => {
      throw new ApiError('method_not_allowed', message(request.method), {
        headers: { allow: allow.join(', ') },
      });
    };
    // Refused before the body is read: a 405 never depends on what was sent.
    app.route({ method: others as HTTPMethods[], url, config, preParsing: refuse, handler: refuse });
  }
}

/** Routes outside the contract, declared here and nowhere else. */
export function nonContractRoutes(handlers: {
  getDocsAsset: RouteHandlerMethod;
  redirectToDocs: RouteHandlerMethod;
}): RouteDefinition[] {
  return [
    {
      method: 'GET',
      url: '/',
      config: { operationId: 'redirectToDocs', access: 'public', rateLimited: false, metricsLabel: 'other' },
      handler: handlers.redirectToDocs,
    },
    {
      method: 'GET',
      url: '/docs/assets/:name',
      config: { operationId: 'getDocsAsset', access: 'public', rateLimited: false, metricsLabel: 'other' },
      handler: handlers.getDocsAsset,
    },
  ];
}
