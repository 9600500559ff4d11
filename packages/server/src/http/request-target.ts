import type { IncomingMessage } from 'node:http';
import { parseHostHeader } from './host-name.ts';

const BAD_AUTHORITY = Symbol('petstore.badAuthority');
type Marked = IncomingMessage & { [BAD_AUTHORITY]?: true };

/** `http://host[:port]` at the start of an absolute-form request target (RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)/i;

/**
 * The request target as the router reads it. An absolute-form target (`GET http://host/path`, which
 * servers must accept) becomes origin-form, and its authority replaces the Host header as RFC 9112
 * says; an authority that names no host is remembered for the guard's 400 (see hasBadAuthority). A
 * path whose percent-escapes do not decode (`/v1/pets/%ZZ`) would be refused by the router before any
 * hook runs; escaping its `%` lets it through auth, rate limiting and the route's own 400.
 */
export function rewriteRequestTarget(request: IncomingMessage): string {
  let url = request.url ?? '/';
  const absolute = ABSOLUTE_FORM.exec(url);
  if (absolute) {
    const authority = absolute[1]!;
    if (parseHostHeader(authority) === undefined) (request as Marked)[BAD_AUTHORITY] = true;
    else request.headers.host = authority;
    const rest = url.slice(absolute[0].length);
    url = rest.startsWith('/') ? rest : `/${rest}`;
  }
  return escapeUndecodablePath(url);
}

/**
 * The Host header the router will read: an absolute-form target's authority, else the Host header
 * (what rewriteRequestTarget makes of it, for steps that run before the router).
 */
export function targetHostHeader(request: IncomingMessage): string | undefined {
  const absolute = ABSOLUTE_FORM.exec(request.url ?? '');
  return absolute ? absolute[1] : request.headers.host;
}

/** Whether the request's absolute-form target named no valid host (`GET http://x:99999/ HTTP/1.1`). */
export function hasBadAuthority(request: IncomingMessage): boolean {
  return (request as Marked)[BAD_AUTHORITY] === true;
}

function escapeUndecodablePath(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.includes('%')) return url;
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    return path.replaceAll('%', '%25') + (queryAt === -1 ? '' : url.slice(queryAt));
  }
}
