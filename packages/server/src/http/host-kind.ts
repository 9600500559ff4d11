import type { IncomingMessage } from 'node:http';
import { parseHostHeader } from './host-name.ts';
import { classifyHost, type CustomHostKind, type HostKind, type ServiceNames } from './service-names.ts';

export type { HostKind } from './service-names.ts';

export interface HostRules {
  names: ServiceNames;
  /**
   * What a name that is not the service's own is to the projects, as this instance last looked it up
   * (undefined: not looked up yet; such a name reaches nothing). The site itself is checked again when
   * it is served, so a removed domain stops at once.
   */
  custom?(hostname: string): CustomHostKind | undefined;
  /**
   * Looks up what the request's host (and its Origin's, for CORS) is before the router reads it
   * synchronously; undefined when nothing needs looking up. Never rejects.
   */
  prepare?(request: IncomingMessage): Promise<void> | undefined;
}

/** The Host header's name as compared everywhere (see parseHostHeader); '' when it names no host. */
export function normalizeHost(header: string | undefined): string {
  return header === undefined ? '' : (parseHostHeader(header.trim())?.hostname ?? '');
}

/** A route's host kind: a kind of Host name, or `internal`, the internal listener's requests alone. */
export type RouteHostKind = HostKind | 'internal';

const KIND = Symbol('petstore.hostKind');
type Marked = IncomingMessage & { [KIND]?: RouteHostKind };

/** Marks a request that came to the internal listener: it is routed to `internal` routes only. */
export function markInternal(request: IncomingMessage): void {
  (request as Marked)[KIND] = 'internal';
}

const NOT_LOOKED_UP = () => undefined;

export function hostKindOf(host: string, rules: HostRules): HostKind {
  // Only HTTP/1.0 may omit Host: it reaches what any unknown name reaches.
  if (host === '') return rules.names.apiHosts.length === 0 ? 'api' : 'none';
  return classifyHost(host, rules.names, rules.custom ?? NOT_LOOKED_UP);
}

const FAILED = Symbol('petstore.hostLookupFailed');
type Failed = IncomingMessage & { [FAILED]?: Error };

/**
 * Marks a request whose host could not be looked up: it is routed nowhere, and the 404 handler answers
 * `error` (a 503) instead, so a failed lookup never passes for "nothing here".
 */
export function markHostLookupFailed(request: IncomingMessage, error: Error): void {
  (request as Failed)[FAILED] = error;
}

/** Why the request's host could not be looked up, if it could not (see markHostLookupFailed). */
export function hostLookupFailure(request: IncomingMessage): Error | undefined {
  return (request as Failed)[FAILED];
}

/** The request's host kind, worked out once per request. */
export function requestHostKind(request: IncomingMessage, rules: HostRules): RouteHostKind {
  const marked = request as Marked;
  marked[KIND] ??= hostKindOf(normalizeHost(request.headers.host), rules);
  return marked[KIND];
}

/**
 * A find-my-way constraint strategy: every route says which host kind serves it (`constraints:
 * { host: 'api' | 'site' }`), and the router matches only routes of the request's kind. A request
 * whose host is neither gets the 404 routes. So `/v1` is answered on the API host only, and a site
 * path on site hosts only, decided by the router like the path itself.
 */
export function hostKindConstraint(rules: HostRules) {
  return {
    name: 'hostKind',
    mustMatchWhenDerived: true,
    storage<Handler>() {
      const handlers = new Map<string, Handler>();
      return {
        get: (kind: string): Handler | null => handlers.get(kind) ?? null,
        set: (kind: string, store: Handler) => {
          handlers.set(kind, store);
        },
      };
    },
    deriveConstraint: (request: IncomingMessage) => requestHostKind(request, rules),
    validate(value: unknown) {
      if (value !== 'api' && value !== 'site' && value !== 'none' && value !== 'internal') {
        throw new Error(`hostKind must be api, site, none or internal, got ${String(value)}`);
      }
    },
  };
}
