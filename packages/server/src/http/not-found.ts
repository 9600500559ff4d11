import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { hostLookupFailure, type HostRules, requestHostKind } from './host-kind.ts';
import type { OtherMethods } from './other-methods.ts';
import { type RouteConfig, routeConfig } from './route-config.ts';
import { named } from './plugin-name.ts';

/**
 * Paths no route matches, and methods a known path does not answer (405 with `Allow`, guarded and
 * counted like the path's own routes, refused before the body is read). Under `/v1` they are guarded like every API operation (a caller without a
 * valid key learns nothing more than 401, a keyed caller spends quota); elsewhere they are limited per
 * client address. Both are routes of the router (Fastify's per-prefix 404 handlers), so the decision
 * is the router's, whatever the spelling of the path.
 */
const UNDER_V1: RouteConfig = {
  operationId: 'notFound',
  access: 'apiKey',
  rateLimited: true,
  metricsLabel: 'other',
};
const ELSEWHERE: RouteConfig = {
  operationId: 'notFound',
  access: 'public',
  rateLimited: true,
  metricsLabel: 'other',
};

/** Throws the 405 of a request whose route is a `notAllowed` one; returns on any other. */
export async function refuseOtherMethod(request: FastifyRequest): Promise<void> {
  const { notAllowed } = routeConfig(request);
  if (!notAllowed) return;
  const message = `${request.method} is not allowed on ${notAllowed.path}; allowed: ${notAllowed.allow}`;
  throw new ApiError('method_not_allowed', message, { headers: { allow: notAllowed.allow } });
}

/** The 404 routes' handler: a 405 when the path is known under other methods, else 404. */
export async function notFound(request: FastifyRequest): Promise<never> {
  await refuseOtherMethod(request);
  const failure = hostLookupFailure(request.raw);
  if (failure) throw failure;
  throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
}

/**
 * Fastify takes route config and every lifecycle hook for a 404 handler (lib/four-oh-four.js), though
 * its types list only two hooks.
 */
function withConfig(config: RouteConfig): Parameters<FastifyInstance['setNotFoundHandler']>[0] {
  return { config, preParsing: refuseOtherMethod } as Parameters<FastifyInstance['setNotFoundHandler']>[0];
}

/**
 * On a host that reaches nothing (not the API's when PETSTORE_API_HOST is set, a customer's name),
 * `/v1/*` is a 404 like every other path: no key is asked for where there is no API. Returns the config
 * of the 404 outside `/v1`, which an area registered on its first request answers its unknown paths
 * with (routes/area-router.ts).
 */
export function installNotFound(
  app: FastifyInstance,
  otherMethods: OtherMethods,
  hosts: HostRules,
): RouteConfig {
  const otherMethodOf = otherMethods.lookup;
  const elsewhere: RouteConfig = { ...ELSEWHERE, otherMethodOf };
  const underV1: RouteConfig = {
    ...UNDER_V1,
    otherMethodOf: (request) =>
      otherMethodOf(request) ?? (requestHostKind(request, hosts) === 'none' ? elsewhere : undefined),
  };
  app.setNotFoundHandler(withConfig(elsewhere), notFound);
  app.register(
    named('404 under /v1', async (v1: FastifyInstance) => {
      v1.setNotFoundHandler(withConfig(underV1), notFound);
    }),
    { prefix: '/v1' },
  );
  return elsewhere;
}
