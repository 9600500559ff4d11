/** `PetStatus`, `NewPet` and `Pet` as the contract defines them: 64-bit integers are `bigint`. */
export type { NewPet, Pet, PetStatus } from '@petstore/contract';
import type { PetStatus, Pet } from '@petstore/contract';

/**
 * The rate-limit window closer to exhaustion, from `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset`; `undefined` when a response came without them.
 */
export interface RateLimit {
  /** Requests allowed in the reported window. */
  limit: number;
  /** Requests left in that window after this one. */
  remaining: number;
  /** When that window resets (or a ban ends), as Unix time in seconds. */
  reset: number;
}

export interface ListPetsParams {
  /** 1 to 100; the service's default is 20. */
  limit?: number;
  status?: PetStatus;
  /** `nextCursor` of the previous page, sent with the same `status` it was issued for. */
  cursor?: string;
}

export interface ListPetsResult {
  pets: Pet[];
  /** Present when more pets match: pass it as `cursor` (with the same `status`) for the next page. */
  nextCursor?: string;
  rateLimit: RateLimit | undefined;
}

export interface PetsParams {
  status?: PetStatus;
  /** Pets fetched per request, 1 to 100 (the service's default is 20). */
  pageSize?: number;
}

export interface CreatePetOptions {
  /**
   * Makes the creation safe to retry for 24 hours (1 to 255 printable ASCII characters). When absent a
   * random UUID is used; either way it is sent unchanged on every retry of this call.
   */
  idempotencyKey?: string;
}

export interface CreatePetResult {
  pet: Pet;
  /** The `Idempotency-Key` that was sent: reuse it to retry this creation later. */
  idempotencyKey: string;
  /** True when the service replayed an earlier creation with this key instead of adding a pet. */
  replayed: boolean;
  rateLimit: RateLimit | undefined;
}

export interface GetPetResult {
  pet: Pet;
  rateLimit: RateLimit | undefined;
}

export interface RetryOptions {
  /** Attempts in all, the first one included (default 5). 1 turns retrying off. */
  maxAttempts?: number;
  /** Base of the exponential backoff in milliseconds (default 200). */
  baseDelayMs?: number;
  /** Cap of one backoff delay in milliseconds (default 30_000). */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` the client waits out, in milliseconds (default 60_000, a whole minute
   * window). A longer one (the day window) is not waited for: the error is thrown with
   * `retryAfterSeconds` so the caller can schedule the retry.
   */
  maxRetryAfterMs?: number;
}

export interface PetstoreClientOptions {
  /** The API's base URL, version segment included, e.g. `https://api.petstore.example/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Waits the given milliseconds; `setTimeout` by default (tests inject a fake). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for backoff jitter; `Math.random` by default. */
  random?: () => number;
  /** The `User-Agent` header; `petstore-client/<version>` by default. */
  userAgent?: string;
}
