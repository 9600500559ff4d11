import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from './redact.ts';

/**
 * The one log line of an answered request: its id (bound by the request's logger), method, target with
 * secrets redacted, status, duration and the public id of the key that was used. Always at info: a
 * failure that deserves more is logged by the error handler, once, with its cause.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info(
    {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      keyId: request.apiKey?.id,
    },
    'request',
  );
}
