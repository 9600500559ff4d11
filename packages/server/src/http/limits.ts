/**
 * What one connection and one request may take from the server. Timeouts and connection caps come from
 * the configuration (PETSTORE_* settings); the sizes are fixed decisions of the API.
 */
export interface HttpLimits {
  /** Time to receive the request line and headers; a slower client gets 408 request_timeout. */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included; also the longest a connection may sit silent. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs: number;
  /** Connections open at once in this process; more are answered 503 and closed. */
  maxConnections: number;
  /** Connections open at once from one client address (trusted proxies exempt); more get 429. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 128,
};

/** The request line and headers together; larger is 431 headers_too_large. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Header fields of one request; more is 431 headers_too_large (Node's parser counts them). */
export const MAX_HEADER_FIELDS = 100;
/** The request target (path and query); longer is 414 uri_too_long. */
export const MAX_URL_LENGTH = 8 * 1024;
/** How often Node looks for requests past their headers or request timeout (so they end within this). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/**
 * A connection being closed keeps reading, and discarding, what the client still sends for at most
 * this long: closing a socket with unread data resets it, and the client would lose the answer.
 */
export const LINGER_MS = 5_000;
/**
 * Requests read on one connection and waiting for their turn (http/turns.ts) at most; with this many
 * waiting, or any waiting while the client does not read its answers, the connection is no longer read
 * until turns free. Reads reach the parser READ_SLICE_BYTES at a time, so at most one slice's requests
 * more are queued behind them.
 */
export const MAX_WAITING_REQUESTS = 16;
/**
 * Bytes of a connection's read given to the HTTP parser at once (http/read-slices.ts): a read may bring
 * 64 KiB, some 1,500 pipelined requests, which Node would build and queue in one turn.
 */
export const READ_SLICE_BYTES = 4 * 1024;
