import type { IncomingMessage } from 'node:http';

/** Which part of the service a request's Host names: the API (and dashboard), a docs site, or nothing. */
export type HostKind = 'api' | 'site' | 'none';

export interface HostRules {
  /** Project docs sites live at `<slug>.<siteDomain>`. */
  siteDomain: string;
  /** The one host of the API and dashboard; undefined means any host that is not a site. */
  apiHost?: string;
  /** Whether a host is, or was, a custom domain of some project (may be a little behind the database). */
  isCustomDomain?(host: string): boolean;
}

/** The Host header as compared everywhere: lower case, without port or trailing dot; '' when absent. */
export function normalizeHost(header: string | undefined): string {
  if (!header) return '';
  let host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  // Only a port (digits, or none: `host:` means the default) is dropped; `a:b` names no host of ours.
  const port = /:\d*$/.exec(host);
  if (port) host = host.slice(0, port.index);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

const KIND = Symbol('petstore.hostKind');
type Marked = IncomingMessage & { [KIND]?: HostKind };

export function hostKindOf(host: string, rules: HostRules): HostKind {
  if (rules.apiHost !== undefined && host === rules.apiHost) return 'api';
  if (host.endsWith(`.${rules.siteDomain}`) || rules.isCustomDomain?.(host)) return 'site';
  return rules.apiHost === undefined ? 'api' : 'none';
}

/** The request's host kind, worked out once per request. */
export function requestHostKind(request: IncomingMessage, rules: HostRules): HostKind {
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
      if (value !== 'api' && value !== 'site' && value !== 'none') {
        throw new Error(`hostKind must be api, site or none, got ${String(value)}`);
      }
    },
  };
}
