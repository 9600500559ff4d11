import { PetstoreError } from './errors.ts';
import { readRateLimit, readRetryAfter } from './headers.ts';
import { resolveRetryPolicy, type RetryPolicy, retryDelayMs } from './retry.ts';
import type { PetstoreClientOptions, RateLimit } from './types.ts';
import { CLIENT_VERSION } from './version.ts';

export interface Transport {
  fetch: typeof fetch;
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Sent on every request: authorization, accept, user-agent. */
  headers: Record<string, string>;
  /** Reads a JSON body, keeping the API's 64-bit integers exact. */
  parse: (text: string) => unknown;
}

/** A client's transport from the options both clients share, sending `credential` as its bearer token. */
export function createTransport(
  options: Pick<PetstoreClientOptions, 'fetch' | 'retry' | 'sleep' | 'random' | 'userAgent'>,
  credential: string,
  parse: (text: string) => unknown,
): Transport {
  return {
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    policy: resolveRetryPolicy(options.retry),
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
    headers: {
      authorization: `Bearer ${credential}`,
      accept: 'application/json',
      'user-agent': options.userAgent ?? `petstore-client/${CLIENT_VERSION}`,
    },
    parse,
  };
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Whether sending it twice does no harm (true unless told): a GET, or a creation with an
   * Idempotency-Key. Otherwise it is sent again only after a 429 (see retryDelayMs).
   */
  replayable?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  rateLimit: RateLimit | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The service's `Error` body as a PetstoreError; a body without a code is `unexpected_response`. */
function errorFromResponse(status: number, headers: Headers, text: string): PetstoreError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const fields = isObject(body) && typeof body.code === 'string' ? body : undefined;
  return new PetstoreError({
    code: (fields?.code ?? 'unexpected_response') as PetstoreError['code'],
    status,
    message: optionalString(fields?.message) ?? `unexpected HTTP ${status} response`,
    requestId: optionalString(fields?.requestId) ?? headers.get('x-request-id') ?? undefined,
    param: optionalString(fields?.param),
    retryAfterSeconds: readRetryAfter(headers),
    rateLimit: readRateLimit(headers),
  });
}

function networkError(request: ApiRequest, cause: unknown): PetstoreError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PetstoreError(
    { code: 'network_error', status: 0, message: `${request.method} ${request.url} failed: ${reason}` },
    { cause },
  );
}

function successFrom(transport: Transport, response: Response, text: string): ApiResponse {
  const rateLimit = readRateLimit(response.headers);
  try {
    return { status: response.status, headers: response.headers, body: transport.parse(text), rateLimit };
  } catch (cause) {
    throw new PetstoreError(
      {
        code: 'unexpected_response',
        status: response.status,
        message: `HTTP ${response.status} response body is not JSON`,
        requestId: response.headers.get('x-request-id') ?? undefined,
        rateLimit,
      },
      { cause },
    );
  }
}

/**
 * One attempt: the response once it succeeded (`read` then reads its body), or the error that ended it.
 */
async function attempt<T>(
  transport: Transport,
  request: ApiRequest,
  read: (response: Response) => Promise<T>,
): Promise<T | PetstoreError> {
  const { fetch } = transport;
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: { ...transport.headers, ...request.headers },
      body: request.body,
    });
    if (response.ok) return await read(response);
    return errorFromResponse(response.status, response.headers, await response.text());
  } catch (cause) {
    if (cause instanceof PetstoreError) throw cause;
    return networkError(request, cause);
  }
}

/** Attempts the request until it succeeds or the retry policy stops; then throws the last PetstoreError. */
async function retrying<T>(
  transport: Transport,
  request: ApiRequest,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const { policy, random, sleep } = transport;
  const replayable = request.replayable ?? true;
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(transport, request, read);
    if (!(outcome instanceof PetstoreError)) return outcome;
    const delayMs =
      retry + 1 < policy.maxAttempts ? retryDelayMs(outcome, retry, policy, random, replayable) : undefined;
    if (delayMs === undefined) throw outcome;
    await sleep(delayMs);
  }
}

/**
 * Sends the request, retrying as the retry policy says, and returns the first successful response.
 * Throws the last PetstoreError once retrying stops.
 */
export function send(transport: Transport, request: ApiRequest): Promise<ApiResponse> {
  return retrying(transport, request, async (response) =>
    successFrom(transport, response, await response.text()),
  );
}

/**
 * Like `send`, but the successful response is returned as soon as its headers arrive, its body unread:
 * for a stream the caller reads as it comes. Only the wait for the response is retried.
 */
export function open(transport: Transport, request: ApiRequest): Promise<Response> {
  return retrying(transport, request, async (response) => response);
}
