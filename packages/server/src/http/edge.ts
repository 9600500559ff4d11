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
import { ignoreUpgrades } from './ignored-upgrade.ts';
import { checkHalfOpen, checkNodeClosing } from './node-behaviour.ts';
import { sliceReads } from './read-slices.ts';
import { pendingAnswer, turnsForReading } from './turns.ts';

export interface EdgeOptions {
  limits: HttpLimits;
  /** Peers exempt from the per-address connection cap. */
  exempt: (address: string) => boolean;
  log: FastifyBaseLogger;
  metrics: ResponseCounter;
}

const requestTimedOut = () =>
  Object.assign(new Error('the request timed out'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

/**
 * The HTTP server's own answers, outside the routes: connection caps, the header-count limit, CONNECT
 * (this is no proxy), unknown `Expect` values (ignored, as RFC 9110 allows, rather than a bare 417) and
 * `Upgrade` (ignored: see ignoreUpgrades); a body that stops coming, and a client that half-closes.
 */
export function installEdge(app: FastifyInstance, options: EdgeOptions): ConnectionGate {
  checkNodeClosing();
  const server = app.server;
  server.maxHeadersCount = MAX_HEADER_FIELDS;
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response);
  });
  // Socket inactivity (the connection timeout, which equals the request timeout) while a request's body
  // is still owed is that request's timeout: a 408 like the request timeout's (Node would close
  // silently, and the inactivity comes first when a body stops); any other inactivity closes the socket.
  server.on('timeout', (socket: Socket) => {
    const pending = pendingAnswer(socket);
    if (pending && !pending.req.complete) server.emit('clientError', requestTimedOut(), socket);
    else socket.destroy();
  });
  // A client that half-closes after its last request still gets every answer (Node's default would
  // close at once, while requests already taken run unanswered); the connection closes after them.
  checkHalfOpen(server);
  (server as typeof server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  ignoreUpgrades(server);
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
  const gate = gateConnections(server, { limits: options.limits, exempt: options.exempt, log: options.log });
  // After the gate and Node's own handling: only an admitted connection has a parser to feed.
  server.on('connection', (socket: Socket) => sliceReads(socket, turnsForReading));
  return gate;
}
