import type { ApiErrorCode } from '@petstore/contract';

/** The closed catalogue of error codes and the HTTP status each one maps to: exactly the contract's codes. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_body: 400,
  invalid_parameter: 400,
  invalid_cursor: 400,
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  plan_required: 403,
  domain_limit_reached: 403,
  two_factor_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_in_progress: 409,
  domain_exists: 409,
  key_limit_reached: 409,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  temporarily_banned: 429,
  too_many_connections: 429,
  too_many_exports: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
} as const satisfies Record<ApiErrorCode, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiErrorOptions {
  /** The offending body field, query parameter, path parameter or header. */
  param?: string;
  /** Response headers that belong to this error (Allow, Retry-After, WWW-Authenticate, …). */
  headers?: Record<string, string>;
}

/** Thrown at the HTTP edge; the error handler turns it into the Error body. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    // A refusal (4xx, 503) is an answer, not a fault: nothing reads its stack, and capturing one costs
    // 10-20 µs under a framework's call depth, paid on every 401, 404 and 429 an attacker asks for.
    // An internal error keeps its stack for the log.
    const stackTraceLimit = Error.stackTraceLimit;
    if (code !== 'internal_error') Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.param = options.param;
    this.headers = options.headers;
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  param?: string;
  requestId?: string;
}

/** Bounds of the Error body's texts, in code points: they may echo what a client sent. */
export const MESSAGE_MAX_LENGTH = 1_000;
export const PARAM_MAX_LENGTH = 200;

/** How much of one piece of client input a message quotes, in code points. */
export const QUOTED_MAX_LENGTH = 200;

/** `text` cut to `max` code points, the last one an ellipsis, when it is longer. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * Characters no message may carry as they are: C0 and C1 controls and DEL, the zero-width and
 * direction controls that make text read as other text, line and paragraph separators, the byte order
 * mark, and lone surrogates (which no UTF-8 database or log can hold).
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\p{Cs}/gu;

/** `text` with every UNPRINTABLE character written as its `\uXXXX` escape. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Client input as a message quotes it: in double quotes, cut to QUOTED_MAX_LENGTH code points, quotes
 * and backslashes escaped as in JSON and every UNPRINTABLE character as `\uXXXX`, so that what a client
 * sent can neither break the message nor hide in it. Every message that echoes client input quotes it
 * with this; errorBody then holds every message and param to the same characters.
 */
export function quoted(text: string): string {
  return printable(JSON.stringify(bounded(text, QUOTED_MAX_LENGTH)));
}

export function errorBody(error: ApiError, requestId?: string): ErrorBody {
  const message = bounded(printable(error.message), MESSAGE_MAX_LENGTH);
  const body: ErrorBody = { code: error.code, message, status: error.status };
  if (error.param !== undefined) body.param = bounded(printable(error.param), PARAM_MAX_LENGTH);
  if (requestId !== undefined) body.requestId = requestId;
  return body;
}
