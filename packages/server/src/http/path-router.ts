import type { IncomingMessage } from 'node:http';
import Router from 'find-my-way';
import { type HostRules, hostKindConstraint, requestHostKind, type RouteHostKind } from './host-kind.ts';

/** The one method paths are recorded under: a path router finds a path, whatever the request's method. */
const ANY = 'GET';

/**
 * A router of paths beside the application's, with its options and host constraint, so that a path
 * matches here exactly when it matches there: the 405 answers of the methods no route uses
 * (other-methods.ts) and the routes of an area registered on its first request (routes/area-router.ts).
 */
export interface PathRouter<Store> {
  add(url: string, hostKind: RouteHostKind, store: Store): void;
  /** The path the request's target reaches on its host, with its parameters; undefined when none. */
  find(request: IncomingMessage): { store: Store; params: Record<string, string | undefined> } | undefined;
}

export interface PathRouterOptions {
  /** The application router's `maxParamLength`. */
  maxParamLength: number;
}

export function createPathRouter<Store>(rules: HostRules, options: PathRouterOptions): PathRouter<Store> {
  const router = Router({
    maxParamLength: options.maxParamLength,
    constraints: { hostKind: hostKindConstraint(rules) },
  });
  return {
    add(url, hostKind, store) {
      router.on(ANY, url, { constraints: { hostKind } }, () => {}, store);
    },
    find(request) {
      const found = router.find(ANY, request.url ?? '', { hostKind: requestHostKind(request, rules) });
      return found ? { store: found.store as Store, params: found.params } : undefined;
    },
  };
}
