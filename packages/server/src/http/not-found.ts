import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { RouteConfig } from './route-config.ts';

/**
 * Paths no route matches. Under `/v1` they are guarded like every API operation (a caller without a
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

async function notFound(request: { url: string }): Promise<never> {
  throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
}

/** Fastify takes route config for a 404 handler (lib/four-oh-four.js) though its types do not say so. */
function withConfig(config: RouteConfig): Parameters<FastifyInstance['setNotFoundHandler']>[0] {
  return { config } as Parameters<FastifyInstance['setNotFoundHandler']>[0];
}

export function installNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler(withConfig(ELSEWHERE), notFound);
  app.register(
    async (v1) => {
      v1.setNotFoundHandler(withConfig(UNDER_V1), notFound);
    },
    { prefix: '/v1' },
  );
}
