import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { ResponseCounter } from './response-counter.ts';
import { type ConnectionGate, gateConnections } from './connection-gate.ts';
import { type HttpLimits, MAX_HEADER_FIELDS } from './limits.ts';
import { endAndLinger, rawErrorResponse } from './socket-answer.ts';

export interface EdgeOptions {
  limits: HttpLimits;
  /** Peers exempt from the per-address connection cap. */
  exempt: (address: string) => boolean;
  log: FastifyBaseLogger;
  metrics: ResponseCounter;
}

/**
 * The HTTP server's own answers, outside the routes: connection caps, the header-count limit, CONNECT
 * (this is no proxy) and unknown `Expect` values (ignored, as RFC 9110 allows, rather than a bare 417).
 */
export function installEdge(app: FastifyInstance, options: EdgeOptions): ConnectionGate {
  const server = app.server;
  server.maxHeadersCount = MAX_HEADER_FIELDS;
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    const started = performance.now();
    const requestId = randomUUID();
    const error = new ApiError('invalid_request', 'CONNECT is not supported: this server is not a proxy');
    if (socket instanceof Socket) {
      socket.resume();
      endAndLinger(socket, rawErrorResponse(error, requestId));
    } else socket.destroy();
    options.metrics.observe('other', 'other', error.status, performance.now() - started);
    options.log.info(
      { reqId: requestId, method: 'CONNECT', statusCode: error.status, code: error.code },
      'request',
    );
  });
  return gateConnections(server, { limits: options.limits, exempt: options.exempt, log: options.log });
}
