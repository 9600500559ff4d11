import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import type { OtherMethods } from '../http/other-methods.ts';
import { installFormBody } from '../web/form-body.ts';
import { type OperationHandlers, type RouteDefinition, registerRoutes } from './table.ts';
import { named } from '../http/plugin-name.ts';

/** Every route, as app.ts builds it from all the areas' handlers: the contract's, then the others. */
export interface RouteTable {
  operations: readonly RouteDefinition[];
  /** The routes outside the contract (NON_CONTRACT_ROUTES), in its order. */
  others: readonly RouteDefinition[];
}

export interface AreaOptions {
  table: RouteTable;
  /** Where each path's 405 answer for the methods no route uses is recorded (http/other-methods.ts). */
  otherMethods: OtherMethods;
}

/**
 * A product area (the API, the internal routes, the dashboard, the docs sites): its handlers, which
 * app.ts puts in the one route table, and the plugin that registers its routes of that table with its
 * hooks and decorations.
 */
export interface Area {
  /** Handlers of the contract's operations, by operationId. */
  operations?: OperationHandlers;
  /** Handlers of routes outside the contract, by operationId. */
  others?: OperationHandlers;
  plugin: FastifyPluginCallback<AreaOptions>;
}

const routesOf = (table: readonly RouteDefinition[], handlers: OperationHandlers = {}) =>
  table.filter((route) => Object.hasOwn(handlers, route.config.operationId));

/**
 * Registers the routes of `table` that the area answers: its operations in `app`'s scope, its other
 * routes in a scope of their own that also reads forms (the API takes JSON alone). A path's routes
 * are always one area's, so its OPTIONS route and 405 answers come with them.
 */
export function registerAreaRoutes(
  app: FastifyInstance,
  { table, otherMethods }: AreaOptions,
  area: Pick<Area, 'operations' | 'others'>,
): void {
  const operations = routesOf(table.operations, area.operations);
  if (operations.length > 0) registerRoutes(app, operations, otherMethods);
  const others = routesOf(table.others, area.others);
  if (others.length === 0) return;
  app.register(
    named('area routes with forms', async (scope: FastifyInstance) => {
      installFormBody(scope);
      registerRoutes(scope, others, otherMethods);
    }),
  );
}
