import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';

/** listStoreOrders: named by the interface but not defined by it; experimental and not implemented. */
export const listStoreOrders: RouteHandlerMethod = async () => {
  throw new ApiError('not_implemented', 'store orders are not available in this version of the API');
};
