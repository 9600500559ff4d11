import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/** listStoreOrders: named by the interface but not defined by it; experimental and not implemented. */
export function registerStoreOrders(app: FastifyInstance): void {
  app.get('/v1/store/orders', async () => {
    throw new ApiError('not_implemented', 'store orders are not available in this version of the API');
  });
}
