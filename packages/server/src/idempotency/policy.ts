import { createHash } from 'node:crypto';
import { ApiError } from '../errors.ts';
import type { NewPet } from '../storage/records.ts';

/**
 * The Idempotency-Key policy (Stripe's and the IETF draft's semantics), in one place:
 * - a key is 1 to 255 printable ASCII characters, else 400 invalid_parameter;
 * - keys belong to the API key that sent them and are kept 24 hours;
 * - only a create that succeeded is recorded (with its pet), in the pet's own transaction, so a
 *   failed or invalid request leaves nothing behind and can be retried with the same key;
 * - the same key with the same pet data replays the first 201; with other data it is 422; while the
 *   first request still runs in this process it is 409 (across instances the loser replays);
 * - expired records are purged hourly (maintenance/jobs.ts, in the maintenance owner).
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 60 * 60_000;

const KEY_FORMAT = /^[\x21-\x7E]{1,255}$/;

/** The Idempotency-Key header's value, undefined when absent; a malformed one is a 400. */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_FORMAT.test(header)) {
    throw new ApiError('invalid_parameter', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
      param: 'Idempotency-Key',
    });
  }
  return header;
}

/** Same pet data means same request, whatever the JSON formatting or key order. */
export function requestHash(pet: NewPet): string {
  return createHash('sha256')
    .update(`${pet.name}\u0000${pet.categoryId}\u0000${pet.status ?? ''}`)
    .digest('hex');
}
