import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { HostRules } from '../http/host-kind.ts';
import { notFound, refuseOtherMethod } from '../http/not-found.ts';
import { createPathRouter } from '../http/path-router.ts';
import type { RouteConfig } from '../http/route-config.ts';
import { type RouteDefinition, routedPaths } from './table.ts';

/** What a request reaches in an area: the route's config (the guard's), its handler and parameters. */
export interface AreaMatch {
  config: RouteConfig;
  handler: RouteHandlerMethod;
  params: Record<string, string | undefined>;
  /** No route of the area has the path: the application's 404 answers (AreaRouterOptions.notFound). */
  miss?: true;
  /** A HEAD answered by the path's GET route: its body is dropped, as the framework's HEAD routes do. */
  headOfGet?: true;
}

/** Routes the requests of an area's prefix routes (routes/lazy-area.ts) to the area's own routes. */
export interface AreaRouter {
  match(request: FastifyRequest): AreaMatch;
}

export interface AreaRouterOptions {
  hosts: HostRules;
  /** The application router's `maxParamLength`. */
  maxParamLength: number;
  /** The config of the application's 404 (http/not-found.ts), which answers a path the area lacks. */
  notFound: RouteConfig;
}

interface PathAnswers {
  byMethod: Map<string, Pick<AreaMatch, 'config' | 'handler'>>;
  refusal: Pick<AreaMatch, 'config' | 'handler'>;
}

/**
 * The application's routing in miniature, for the routes of one area: each path once (routes/table.ts,
 * routedPaths), on the same kinds of host, matched by a router with the application's options, and
 * answered as the application answers its own paths: a route for its method (HEAD by the GET route,
 * as the framework does), `OPTIONS` by the path's preflight, any other method 405 with `Allow`, and a
 * path with no route the application's 404.
 */
export function createAreaRouter(routes: readonly RouteDefinition[], options: AreaRouterOptions): AreaRouter {
  const router = createPathRouter<PathAnswers>(options.hosts, options);
  for (const path of routedPaths(routes)) {
    const answers: PathAnswers = {
      byMethod: new Map([...path.routes, path.preflight].map((route) => [route.method, route])),
      refusal: { config: path.refusal, handler: refuseOtherMethod },
    };
    for (const hostKind of path.hostKinds) router.add(path.url, hostKind, answers);
  }
  return {
    match(request) {
      const found = router.find(request.raw);
      if (!found) {
        const config = options.notFound;
        return {
          config: config.otherMethodOf?.(request.raw) ?? config,
          handler: notFound,
          params: {},
          miss: true,
        };
      }
      const { byMethod, refusal } = found.store;
      const get = byMethod.get('GET');
      if (request.method === 'HEAD' && !byMethod.has('HEAD') && get) {
        return { ...get, params: found.params, headOfGet: true };
      }
      return { ...(byMethod.get(request.method) ?? refusal), params: found.params };
    },
  };
}
