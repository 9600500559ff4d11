import { PetstoreError } from './errors.ts';
import { readRateLimit, readRetryAfter } from './headers.ts';
import { parseJson } from './json.ts';
import { type RetryPolicy, retryDelayMs } from './retry.ts';
import type { RateLimit } from './types.ts';

export interface Transport {
  fetch: typeof fetch;
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Sent on every request: authorization, accept, user-agent. */
  headers: Record<string, string>;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
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

function successFrom(response: Response, text: string): ApiResponse {
  const rateLimit = readRateLimit(response.headers);
  try {
    return { status: response.status, headers: response.headers, body: parseJson(text), rateLimit };
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

/** One attempt: a success, or the error that ended it. */
async function attempt(transport: Transport, request: ApiRequest): Promise<ApiResponse | PetstoreError> {
  const { fetch } = transport;
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: { ...transport.headers, ...request.headers },
      body: request.body,
    });
    text = await response.text();
  } catch (cause) {
    return networkError(request, cause);
  }
  if (response.ok) return successFrom(response, text);
  return errorFromResponse(response.status, response.headers, text);
}

/**
 * Sends the request, retrying as the retry policy says, and returns the first successful response.
 * Throws the last PetstoreError once retrying stops.
 */
export async function send(transport: Transport, request: ApiRequest): Promise<ApiResponse> {
  const { policy, random, sleep } = transport;
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(transport, request);
    if (!(outcome instanceof PetstoreError)) return outcome;
    const delayMs = retry + 1 < policy.maxAttempts ? retryDelayMs(outcome, retry, policy, random) : undefined;
    if (delayMs === undefined) throw outcome;
    await sleep(delayMs);
  }
}
