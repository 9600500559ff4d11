import type { FastifyRequest } from 'fastify';

/** Strict-Transport-Security on every answer that went over TLS: a year, the service's own name only. */
export const HSTS = 'max-age=31536000';

/**
 * The scheme the client used: `https` when the connection (or a trusted proxy's X-Forwarded-Proto)
 * says so, else `http`. Never any other value, whatever a header holds, so links and redirects built
 * from it are always web addresses.
 */
export function requestScheme(request: Pick<FastifyRequest, 'protocol'>): 'http' | 'https' {
  return request.protocol === 'https' ? 'https' : 'http';
}
