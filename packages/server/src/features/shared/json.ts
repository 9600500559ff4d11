import type { FastifyReply } from 'fastify';
import { ApiError } from '../../errors.ts';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';

export { iso, isoOrNull } from './iso.ts';

/** A management API answer: plain JSON (no 64-bit values), never cached. */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .status(status)
    .header('content-type', JSON_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}

/**
 * A create's 201 under the management API's Idempotency-Key (idempotency/sealed-answers.ts): its body
 * as first answered, marked `Idempotent-Replayed: true` when this answer is a replay.
 */
export function sendCreated(reply: FastifyReply, answer: { body: string; replayed: boolean }): FastifyReply {
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply
    .status(201)
    .header('content-type', JSON_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(answer.body);
}

/** An integer query or body value (the contract's checks have run) as a number. */
export const numberOf = (value: unknown): number | undefined =>
  value === undefined || value === null ? undefined : Number(value as number | bigint);

/** A list's page from its checked query: `limit` (at most `maxLimit`, else 400) and `cursor`. */
export function pageQuery(
  query: Record<string, unknown>,
  maxLimit: number,
): { limit: number | undefined; cursor: string | undefined } {
  const limit = numberOf(query.limit);
  if (limit !== undefined && limit > maxLimit) {
    throw new ApiError('invalid_parameter', `limit must be at most ${maxLimit}`, { param: 'limit' });
  }
  return { limit, cursor: query.cursor as string | undefined };
}
