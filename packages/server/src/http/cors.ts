import type { FastifyReply, RouteHandlerMethod } from 'fastify';

/**
 * Which web origins may read this service's responses from a browser. Keys are bearer tokens, never
 * cookies, so a browser never sends credentials on its own and `Access-Control-Allow-Credentials` is
 * never sent: a page can only use a key its user pasted into it.
 */
export interface CorsPolicy {
  allows(origin: string): boolean;
}

/** The longest origin ever echoed; longer ones are not origins a configured policy could name. */
export const MAX_ORIGIN_LENGTH = 512;

/** Response headers a browser script may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Link',
  'Location',
  'X-Request-Id',
  'Idempotent-Replayed',
  'Deprecation',
  'Sunset',
].join(', ');

/** Request headers a browser script may send: the key, the body type, idempotency, tracing. */
export const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';

/**
 * How long a browser may reuse a preflight answer: two hours, Chromium's cap. Revoking an origin does
 * not wait for it, since every actual response is checked again.
 */
export const PREFLIGHT_MAX_AGE_SECONDS = 7_200;

/** Nothing allowed: the default when no origin is configured. */
export const NO_ORIGINS: CorsPolicy = { allows: () => false };

/** Every origin (the setting `*`); only well-formed origins are ever echoed (see `applyCors`). */
export const ANY_ORIGIN: CorsPolicy = { allows: () => true };

/** Exactly these origins, compared as browsers serialise them. */
export function exactOrigins(origins: Iterable<string>): CorsPolicy {
  const allowed = new Set(origins);
  return { allows: (origin) => allowed.has(origin) };
}

/** The policy a setting describes: `*` for any origin, else a list of exact origins (empty: none). */
export function corsPolicy(origins: '*' | readonly string[]): CorsPolicy {
  if (origins === '*') return ANY_ORIGIN;
  return origins.length === 0 ? NO_ORIGINS : exactOrigins(origins);
}

/**
 * Whether `text` is an origin exactly as a browser sends it in `Origin`: `http` or `https`, a lower-case
 * host, a port only when not the default, and nothing else (no path, not even `/`).
 */
export function isSerializedOrigin(text: string): boolean {
  if (text.length > MAX_ORIGIN_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}

/**
 * Sets the CORS headers of a response; called by the first hook of every request, before anything
 * can fail, so errors carry them too. `Vary: Origin` goes on every response, since whether the others
 * are present depends on `Origin`: a shared cache must not hand one origin's answer to another.
 */
export function applyCors(policy: CorsPolicy, origin: string | undefined, reply: FastifyReply): void {
  reply.header('vary', 'Origin');
  if (origin === undefined || !policy.allows(origin) || !isSerializedOrigin(origin)) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
}

/**
 * The answer to `OPTIONS` on a known path, with or without a key: `204` with `Allow`, and for an allowed
 * origin (the first hook already set `Access-Control-Allow-Origin`) what a preflight asks for.
 */
export function preflight(allow: readonly string[]): RouteHandlerMethod {
  const methods = allow.join(', ');
  const granted = {
    'access-control-allow-methods': methods,
    'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
  return async (_request, reply) => {
    reply.header('allow', methods);
    if (reply.hasHeader('access-control-allow-origin')) reply.headers(granted);
    return reply.code(204).send();
  };
}
