import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RouteConfig, routeConfig } from './route-config.ts';
import type { AuthenticatedKey } from '../storage/records.ts';
import { redactUrl } from './redact.ts';

/**
 * A request once answered: what its log line, its request-log row and its metrics are made of, whether
 * it was answered by the framework or by the API's own lane (features/pets/lane.ts).
 */
export interface AnsweredRequest {
  id: string;
  method: string;
  /** The request target with secrets redacted (http/redact.ts): all that is ever written of it. */
  loggedUrl: string;
  status: number;
  ms: number;
  /** The key that was used, once authenticated. */
  key: AuthenticatedKey | undefined;
  config: RouteConfig;
  /** The Error body's `code` of a failure. */
  errorCode: string | undefined;
  /** The Error body's `message` of a failure. */
  errorMessage?: string;
  /** The client address (after trusted proxies). */
  address: string;
}

export function answeredOf(request: FastifyRequest, reply: FastifyReply): AnsweredRequest {
  return {
    id: request.id,
    method: request.method,
    loggedUrl: redactUrl(request.url),
    status: reply.statusCode,
    ms: reply.elapsedTime,
    key: request.apiKey,
    config: routeConfig(request),
    errorCode: request.errorCode,
    errorMessage: request.errorMessage,
    address: request.ip,
  };
}
