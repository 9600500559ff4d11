import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { OperationHandlers } from './table.ts';

/**
 * Handlers for `operationIds` whose module is imported on the first request to any of them, so a
 * process that never serves them (an API-only deployment, a CLI command) never pays for their code:
 * the dashboard, the docs and the sites hold most of the server's imports. A failed import is retried
 * by the next request.
 */
export function lazyHandlers<const Id extends string>(
  operationIds: readonly Id[],
  load: () => Promise<OperationHandlers>,
): Record<Id, RouteHandlerMethod> {
  let loading: Promise<OperationHandlers> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const handlers = {} as Record<Id, RouteHandlerMethod>;
  for (const operationId of operationIds) {
    handlers[operationId] = async function (
      this: FastifyInstance,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      const handler: RouteHandlerMethod | undefined = (await loaded())[operationId];
      if (!handler) throw new Error(`the lazily loaded handlers have no ${operationId}`);
      return handler.call(this, request, reply);
    };
  }
  return handlers;
}
