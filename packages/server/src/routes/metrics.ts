import type { RouteHandlerMethod } from 'fastify';
import { EXPOSITION_CONTENT_TYPE, type Family, renderFamilies } from '../metrics/exposition.ts';

/** getMetrics: Prometheus text format. `gather` decides whose metrics (this process's, or every worker's). */
export function getMetrics(gather: () => Promise<Family[]>): RouteHandlerMethod {
  return async (_request, reply) => {
    const body = renderFamilies(await gather());
    return reply
      .header('content-type', EXPOSITION_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send(body);
  };
}
