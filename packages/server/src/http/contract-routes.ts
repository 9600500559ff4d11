import type { OpenApiDocument } from '../openapi/contract.ts';
import type { AddressBudget } from '../ratelimit/address-budgets.ts';
import { deprecationOf } from './deprecation.ts';
import type { RouteConfig } from './route-config.ts';
import type { OperationHandlers, RouteDefinition, RouteSpec } from './route-spec.ts';

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
