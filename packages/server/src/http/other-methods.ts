import type { IncomingMessage } from 'node:http';
import type { RouteConfig } from './route-config.ts';
import type { HostRules, RouteHostKind } from './host-kind.ts';
import { createPathRouter, type PathRouterOptions } from './path-router.ts';

/**
 * The paths the router knows, whatever their methods: a request the router sends to a 404 route is a
 * 405 when its path is here for its host kind. One private router holds each path once, matched with
 * the same options and host constraint as the application's, instead of one route per path and
 * method (about 1,400 registrations, most of the router's start-up).
 */
export interface OtherMethods {
  /** Records a path's 405 answer: the config it is guarded and counted with (`methodNotAllowed`). */
  add(url: string, hostKind: RouteHostKind, config: RouteConfig): void;
  /** The 405 config of the request's path, or undefined when no route has that path. */
  lookup(request: IncomingMessage): RouteConfig | undefined;
}

export function createOtherMethods(rules: HostRules, options: PathRouterOptions): OtherMethods {
  const router = createPathRouter<RouteConfig>(rules, options);
  return {
    add: router.add,
    lookup: (request) => router.find(request)?.store,
  };
}
