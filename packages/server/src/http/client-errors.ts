import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { ResponseCounter } from './response-counter.ts';
import { MAX_HEADER_BYTES, MAX_HEADER_FIELDS } from './limits.ts';
import { redactUrl } from './redact.ts';
import { endAndLinger, rawErrorResponse } from './socket-answer.ts';
import { announcedClose, pendingAnswer, takeOver, whenSent } from './turns.ts';

/** What Node's HTTP parser reports: a code and, from llhttp, a fixed English reason. */
interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** llhttp's reasons are fixed strings of its own, never bytes of the request; kept short and printable anyway. */
function reasonOf(error: ParserError): string {
  const reason =
    typeof error.reason === 'string' ? error.reason.replace(/[^\x20-\x7e]/g, '').slice(0, 120) : '';
  return reason === '' ? '' : ` (${reason})`;
}

export function parserErrorToApiError(error: ParserError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'headers_too_large',
        `the request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB or ${MAX_HEADER_FIELDS} fields`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', 'the chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(
        'request_timeout',
        'the request did not arrive in time; send it at once, then wait',
      );
    default:
      return new ApiError('invalid_request', `the request is not valid HTTP/1.1${reasonOf(error)}`);
  }
}

/**
 * Fastify's clientErrorHandler (called with the instance as `this`) for Node's `clientError`: the parser refused the bytes of a request (or its time ran out) before any
 * route saw it. Answered with the Error body, a fresh request id and `Connection: close`, counted and
 * logged like any answer. The raw packet is never logged: it may hold an Authorization header.
 */
export function clientErrorHandler(
  metrics: ResponseCounter,
): (this: FastifyInstance, error: ParserError, socket: Socket) => void {
  const answered = new WeakSet<Socket>();
  return function onClientError(error, socket) {
    const log = this.log;
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const started = performance.now();
    const apiError = parserErrorToApiError(error);
    const requestId = randomUUID();
    const pending = pendingAnswer(socket);
    // A body that stopped arriving belongs to a request whose line and headers were read: name it.
    const request = pending && !pending.req.complete ? pending.req : undefined;
    const answer = () => {
      // An earlier answer closed the connection (or it is gone): nothing more is sent on it.
      if (!socket.writable || socket.writableEnded) {
        socket.destroy();
        return;
      }
      endAndLinger(socket, rawErrorResponse(apiError, requestId));
      metrics.observe('other', 'other', apiError.status, performance.now() - started);
      log.info(
        {
          reqId: requestId,
          method: request?.method,
          url: request?.url === undefined ? undefined : redactUrl(request.url),
          statusCode: apiError.status,
          code: apiError.code,
          cause: error.code,
        },
        'request',
      );
    };
    if (!pending) {
      answer();
      return;
    }
    // The answers owed to earlier requests on this connection go first, and this one closes it. The
    // request whose body failed is answered here, never by its handler (unless that answered already).
    if (request && !pending.headersSent) {
      takeOver(pending, () => (pending.socket === null ? socket.destroy() : answer()));
      return;
    }
    // Written as soon as the last answer owed is sent, before Node would close after it (a client
    // that half-closed is owed nothing more, by Node's account).
    whenSent(
      pending,
      () => (announcedClose(pending) ? socket.destroy() : answer()),
      () => socket.destroy(),
    );
  };
}
