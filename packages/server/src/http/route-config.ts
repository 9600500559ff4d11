import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { AddressBudget } from '../ratelimit/address-budgets.ts';

/** A member's role in a project, from the most to the least trusted: what a route may require. */
export type Role = 'owner' | 'developer' | 'viewer';

/**
 * Who may call a route: anyone, a caller with a valid API key, an account signed in to the dashboard,
 * or an account's access token (the management API).
 */
export type Access = 'public' | 'apiKey' | 'session' | 'accessToken';

export interface Deprecation {
  /** `Deprecation`, `Sunset` and `Link`: sent on every response of the route, errors included. */
  headers: Record<string, string>;
  /** From this instant (epoch ms) on, the route answers 410 gone. */
  sunsetAt: number;
  /** The message of that 410. */
  goneMessage: string;
}

/**
 * What the guard, the deprecation headers, the metrics and the 405 answer know about a route. It is
 * attached when the route is registered and read from the route the router matched, never from the URL.
 */
export interface RouteConfig {
  /** The contract's operationId, or a name for a route outside the contract. */
  operationId: string;
  access: Access;
  /** Counted against the caller's quota: the key's once authenticated, else the client address's. */
  rateLimited: boolean;
  /** Without a valid key, the client address's budget this route counts against; `api` when absent. */
  addressBudget?: AddressBudget;
  deprecation?: Deprecation;
  /** The `operation` label of the request metrics. */
  metricsLabel: string;
  /**
   * Which hosts serve the route (default `api`): the API host, the projects' docs sites, any host at
   * all, or only the internal listener (PETSTORE_INTERNAL_PORT), which no public name ever reaches.
   */
  host?: 'api' | 'site' | 'any' | 'internal';
  /** Errors as an HTML page (dashboard and sites) instead of the Error body. */
  htmlErrors?: boolean;
  /** A form that changes something: its CSRF token is checked before the handler runs. */
  csrf?: boolean;
  /**
   * A project's page or form (`:slug` in its path): the least role it needs. The guard refuses a
   * non-member with 404 and a member with a lesser role with 403 before the handler runs.
   */
  role?: Role;
  /** A 405 answer (http/other-methods.ts): its `Allow` and the path as the contract writes it. */
  notAllowed?: { allow: string; path: string };
  /** A 404 route: the 405 config when the request's path is known under other methods. */
  otherMethodOf?: (request: IncomingMessage) => RouteConfig | undefined;
  /**
   * The prefix route of an area registered on its first request (routes/lazy-area.ts): the route the
   * request reaches in the area, found by `matchRoute` before the guard reads any config.
   */
  area?: { route(request: FastifyRequest): RouteConfig | Promise<RouteConfig> };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
  }
  interface FastifyRequest {
    /** The matched route's RouteConfig, read once by the first hook (see `routeConfig`). */
    route: RouteConfig | null;
  }
}

/**
 * The configuration of the route that matched this request (a 404 handler is a route too). Fastify's
 * `routeOptions` getter builds a new object on every call, so the first call keeps the result. The
 * guard calls `matchRoute` first; before it has, an area's prefix route reads as the prefix's own.
 */
export function routeConfig(request: FastifyRequest): RouteConfig {
  if (request.route) return request.route;
  const config = request.routeOptions.config as unknown as RouteConfig;
  if (config.area) return config;
  request.route = config.otherMethodOf?.(request.raw) ?? config;
  return request.route;
}

/**
 * The guard's first step: the configuration of the route this request reaches, through an area's
 * prefix route to the area's own route (a promise only while the area is being loaded).
 */
export function matchRoute(request: FastifyRequest): RouteConfig | Promise<RouteConfig> {
  if (request.route) return request.route;
  const config = request.routeOptions.config as unknown as RouteConfig;
  return config.area ? config.area.route(request) : routeConfig(request);
}
