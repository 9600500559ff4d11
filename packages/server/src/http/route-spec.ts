import type { RouteHandlerMethod } from 'fastify';
import type { Role, RouteConfig } from './route-config.ts';

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

export const route = (method: string, url: string, config: RouteConfig): RouteSpec => ({
  method,
  url,
  config,
});

/** A dashboard page or form: counted per client address like the docs pages (sign-in has its own, tighter limits too). */
export const dashboardRoute = (
  operationId: string,
  access: 'public' | 'session',
  csrf = false,
): RouteConfig => ({
  operationId,
  access,
  rateLimited: true,
  addressBudget: 'public',
  metricsLabel: 'dashboard',
  htmlErrors: true,
  csrf,
});

/** A page or form of one project (`:slug`), open to members holding at least `role`. */
export const projectRoute = (operationId: string, role: Role, csrf = false): RouteConfig => ({
  ...dashboardRoute(operationId, 'session', csrf),
  role,
});

/** A page of a project's docs site, on a site host. */
export const siteRoute = (operationId: string): RouteConfig => ({
  operationId,
  access: 'public',
  rateLimited: true,
  addressBudget: 'public',
  metricsLabel: 'site',
  host: 'site',
  htmlErrors: true,
});

/** A public route of the service's own pages (the docs and their files), counted per client address. */
export const pageRoute = (operationId: string): RouteConfig => ({
  operationId,
  access: 'public',
  rateLimited: true,
  addressBudget: 'public',
  metricsLabel: 'other',
});
