import type { RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const LAST = Symbol('petstore.lastResponse');
const EDGE_CLOSES = Symbol('petstore.edgeCloses');
type Tracked = Socket & { [LAST]?: ServerResponse; [EDGE_CLOSES]?: true };

/** Answers the edge gives itself (client-errors.ts): their handlers must never run. */
const takenOver = new WeakSet<ServerResponse>();

/**
 * Node's HTTP server emits a pipelined request as soon as its head is parsed, while the answers before
 * it are still being decided, and queues its answer behind theirs. An earlier answer may close the
 * connection (`Connection: close`: a malformed request, a body that failed, a 413), and a server that
 * closes must not process the requests after it (RFC 9112 §9.6): so a request runs only once its answer
 * owns the connection, every answer before it sent and none of them closing. A request whose turn never
 * comes is dropped with its connection, unexecuted; its client, seeing the close, knows to retry it.
 * A request read after the connection started closing is never run either.
 *
 * An HTTP/1.0 request with `Transfer-Encoding` is answered, then the connection closed (RFC 9112 §6.1:
 * its framing is faulty).
 */
export function inTurn(listener: RequestListener): RequestListener {
  return (request, response) => {
    const socket = request.socket as Tracked;
    socket[LAST] = response;
    if (request.httpVersionMinor === 0 && request.headers['transfer-encoding'] !== undefined) {
      response.setHeader('connection', 'close');
    }
    if (response.socket !== null) {
      if (!socket.writableEnded) listener(request, response);
      return;
    }
    response.once('socket', () => {
      if (!takenOver.has(response) && !socket.writableEnded) listener(request, response);
    });
  };
}

/**
 * The answer to the last request read on the connection, while it is not sent: every earlier answer is
 * sent before it.
 */
export function pendingAnswer(socket: Socket): ServerResponse | undefined {
  const last = (socket as Tracked)[LAST];
  return last === undefined || last.writableFinished || last.destroyed ? undefined : last;
}

/**
 * Calls `then` once the answers owed before `response` are sent: at once when it owns the connection,
 * else when its turn comes (or when the connection closes first). Its own handler never runs.
 */
export function takeOver(response: ServerResponse, then: () => void): void {
  if (response.socket !== null) {
    then();
    return;
  }
  takenOver.add(response);
  let once = false;
  const go = () => {
    if (once) return;
    once = true;
    then();
  };
  response.once('socket', go);
  response.once('close', go);
}

/** Calls `then` once `response` is sent, or closed unsent. */
export function afterAnswer(response: ServerResponse, then: () => void): void {
  let once = false;
  const go = () => {
    if (once) return;
    once = true;
    then();
  };
  response.once('finish', go);
  response.once('close', go);
}

/**
 * The edge writes the connection's last answer itself (client-errors.ts), after the answers owed: the
 * connection is not to be closed after those, even when the client half-closed meanwhile.
 */
export function edgeCloses(socket: Socket): void {
  (socket as Tracked)[EDGE_CLOSES] = true;
}

/**
 * Whether the connection's close is the edge's to make now: it has an answer of its own to write after
 * the last answer owed, which was just sent without announcing a close (the client may have half-closed).
 */
export function edgeAnswersNext(socket: Socket): boolean {
  const tracked = socket as Tracked;
  const last = tracked[LAST];
  return (
    tracked[EDGE_CLOSES] === true && last !== undefined && last.writableFinished && !announcedClose(last)
  );
}

/** Whether `response` told its client that the connection closes after it. */
export function announcedClose(response: ServerResponse): boolean {
  if (!response.shouldKeepAlive) return true;
  const connection = response.getHeader('connection');
  return typeof connection === 'string' && /(^|,)\s*close\s*(,|$)/i.test(connection);
}
