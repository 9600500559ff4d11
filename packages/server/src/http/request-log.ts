import type { FastifyBaseLogger } from 'fastify';
import type { AnsweredRequest } from './answered.ts';

/**
 * The one log line of an answered request: its id, method, target with secrets redacted, status,
 * duration and the public id of the key that was used. Always at info: a failure that deserves more is
 * logged by the error handler, once, with its cause.
 */
export function logRequest(log: FastifyBaseLogger, answer: AnsweredRequest): void {
  log.info(
    {
      reqId: answer.id,
      method: answer.method,
      url: answer.loggedUrl,
      statusCode: answer.status,
      ms: Math.round(answer.ms * 100) / 100,
      keyId: answer.key?.id,
    },
    'request',
  );
}
