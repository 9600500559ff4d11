import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { sendError } from './send-error.ts';

export interface RouteShape {
  pattern: RegExp;
  methods: string[];
}

/** Unknown routes get the Error body (404); known paths with another method get 405 and `Allow`. */
export function installNotFound(app: FastifyInstance, routes: readonly RouteShape[]): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    const route = routes.find((candidate) => candidate.pattern.test(path));
    if (route) {
      const allow = route.methods.includes('GET') ? [...route.methods, 'HEAD'] : route.methods;
      return sendError(
        request,
        reply,
        new ApiError(
          'method_not_allowed',
          `${request.method} is not allowed on ${path}; allowed: ${allow.join(', ')}`,
          {
            headers: { allow: allow.join(', ') },
          },
        ),
      );
    }
    return sendError(request, reply, new ApiError('not_found', `no resource at ${path}`));
  });
}
