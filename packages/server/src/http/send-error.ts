import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, errorBody } from '../errors.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Writes the Error body for an ApiError, keeping headers already set (rate limits, deprecation). */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .header('content-type', JSON_CONTENT_TYPE)
    .send(JSON.stringify(errorBody(error, request.id)));
}
