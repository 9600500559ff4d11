import type { RateLimit } from './types.ts';

/** The service's closed catalogue of error codes (OpenAPI `Error.code`), generated from the contract. */
export type { ApiErrorCode } from '@petstore/contract';
import type { ApiErrorCode } from '@petstore/contract';

/**
 * Codes the client itself assigns: `network_error` when no response arrived (status 0),
 * `unexpected_response` when a response did not carry the documented body (e.g. a proxy's HTML page).
 */
export type ClientErrorCode = 'network_error' | 'unexpected_response';

export interface PetstoreErrorInit {
  code: ApiErrorCode | ClientErrorCode;
  /** The HTTP status, or 0 when no response arrived. */
  status: number;
  message: string;
  requestId?: string;
  param?: string;
  retryAfterSeconds?: number;
  rateLimit?: RateLimit;
}

/** An error answered by the service (its `Error` body), or a failure to get an answer at all. */
export class PetstoreError extends Error {
  override readonly name = 'PetstoreError';
  /** Branch on this; the message is for people and may change. */
  readonly code: ApiErrorCode | ClientErrorCode;
  readonly status: number;
  /** The `X-Request-Id` to quote when asking for help. */
  readonly requestId: string | undefined;
  /** The offending body field, parameter or header, when there is one. */
  readonly param: string | undefined;
  /** The `Retry-After` of the response, in seconds, when it had one. */
  readonly retryAfterSeconds: number | undefined;
  readonly rateLimit: RateLimit | undefined;

  constructor(init: PetstoreErrorInit, options?: ErrorOptions) {
    super(init.message, options);
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.param = init.param;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.rateLimit = init.rateLimit;
  }
}
