import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../http/redact.ts';
import { routeConfig } from '../routes/route-config.ts';
import type { LoggedRequest } from '../storage/request-log-records.ts';

/**
 * The request log's row for an answered request made with a project's key, or undefined for any other
 * request (no key, or a standalone key). Only what is listed here is kept: never a header, a cookie or
 * a body, and the target with secrets redacted.
 */
export function loggedRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  at: number,
): LoggedRequest | undefined {
  const key = request.apiKey;
  if (!key?.projectId) return undefined;
  return {
    projectId: key.projectId,
    at,
    requestId: request.id,
    keyId: key.id,
    keyLabel: key.label,
    operation: routeConfig(request).operationId,
    method: request.method,
    path: redactUrl(request.url),
    status: reply.statusCode,
    code: reply.statusCode >= 400 ? (request.errorCode ?? null) : null,
    latencyMs: Math.round(reply.elapsedTime * 100) / 100,
    address: request.ip,
  };
}
