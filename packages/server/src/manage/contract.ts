import type { RouteHandlerMethod } from 'fastify';
import type { RouteConfig } from '../http/route-config.ts';
import { type OperationInput, operationInput } from '../validation/operation-input.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import type { RouteSpec } from '../routes/table.ts';
import { ROLES, type Role } from '../features/members/member-records.ts';

const OPERATION_METHODS = ['get', 'post', 'patch', 'delete'];

/** The metrics label of the operations that take an access token (the public ones count as `other`). */
export const MANAGE_LABEL = 'manage';

/**
 * The operations of openapi/manage.yaml as route specs under its server's path (`/manage/v1`): what
 * the area routes once loaded (area.ts) and what the app's route table lists before (plugin.ts).
 */
export function manageRouteSpecs(document: OpenApiDocument): RouteSpec[] {
  const prefix = new URL(document.servers[0]!.url, 'http://localhost/').pathname.replace(/\/$/, '');
  return Object.entries(document.paths).flatMap(([template, item]) =>
    OPERATION_METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as { operationId: string; security?: unknown[] };
      const open = operation.security?.length === 0;
      const config: RouteConfig = open
        ? {
            operationId: operation.operationId,
            access: 'public',
            rateLimited: true,
            addressBudget: 'public',
            metricsLabel: 'other',
          }
        : {
            operationId: operation.operationId,
            access: 'accessToken',
            rateLimited: false,
            metricsLabel: MANAGE_LABEL,
          };
      const url = `${prefix}${template.replace(/\{([^}]+)\}/g, ':$1')}`;
      return { method: method.toUpperCase(), url, config };
    }),
  );
}

/** What an operation on a project asks of the token's account there: its least role, and whether it writes. */
export interface ProjectNeed {
  role: Role;
  write: boolean;
}

/**
 * Each project operation's `x-role` (openapi/manage.yaml), by operationId. An operation under
 * `/projects/{slug}` without one is a mistake in the document: the area refuses to load.
 */
export function projectNeeds(document: OpenApiDocument): Map<string, ProjectNeed> {
  const needs = new Map<string, ProjectNeed>();
  for (const [template, item] of Object.entries(document.paths)) {
    if (!template.startsWith('/projects/{slug}')) continue;
    for (const method of OPERATION_METHODS.filter((name) => item[name])) {
      const operation = item[method] as { operationId: string; 'x-role'?: string };
      const role = operation['x-role'] as Role | undefined;
      if (!role || !ROLES.includes(role)) {
        throw new Error(
          `the management operation ${operation.operationId} names no x-role of ${ROLES.join(', ')}`,
        );
      }
      needs.set(operation.operationId, { role, write: method !== 'get' });
    }
  }
  return needs;
}

/**
 * The handler of a guarded operation, given its query and body as the contract declares them
 * (validation/operation-input.ts): read after the guard, so that a token that may not act is refused
 * whatever it sent.
 */
function reading(handler: RouteHandlerMethod, input: OperationInput): RouteHandlerMethod {
  return function (request, reply) {
    request.query = input.query(request.query as Record<string, string>);
    request.body = input.body(request.body);
    return handler.call(this, request, reply);
  };
}

/** `handlers` with every guarded operation's query and body read by its declaration first. */
export function readingDeclaredInput(
  document: OpenApiDocument,
  handlers: Record<string, RouteHandlerMethod>,
): Record<string, RouteHandlerMethod> {
  const read = { ...handlers };
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of OPERATION_METHODS.filter((name) => item[name])) {
      const operation = item[method] as { operationId: string; security?: unknown[] };
      const handler = read[operation.operationId];
      if (handler === undefined || operation.security?.length === 0) continue;
      read[operation.operationId] = reading(handler, operationInput(template, method, document));
    }
  }
  return read;
}
