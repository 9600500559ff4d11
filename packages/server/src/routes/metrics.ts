import type { FastifyInstance } from 'fastify';
import { EXPOSITION_CONTENT_TYPE, type Family, renderFamilies } from '../metrics/exposition.ts';

/** /metrics: Prometheus text format, public and not rate limited. `gather` decides whose metrics. */
export function registerMetrics(app: FastifyInstance, gather: () => Promise<Family[]>): void {
  app.get('/metrics', async (_request, reply) => {
    const body = renderFamilies(await gather());
    return reply
      .header('content-type', EXPOSITION_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
