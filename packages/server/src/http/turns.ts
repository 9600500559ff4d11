import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const RESPONSE = Symbol('petstore.response');
const EDGE_AFTER = Symbol('petstore.edgeAnswersAfter');
type Linked = IncomingMessage & { [RESPONSE]?: ServerResponse };
/** What Node's HTTP server keeps on a connection: its parser (with the last request read) and its answer in flight. */
type HttpSocket = Socket & {
  parser?: { incoming?: Linked | null } | null;
  _httpMessage?: ServerResponse | null;
  [EDGE_AFTER]?: ServerResponse;
};

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
    if (request.httpVersionMinor === 0 && request.headers['transfer-encoding'] !== undefined) {
      response.setHeader('connection', 'close');
    }
    const socket = request.socket;
    if (response.socket !== null) {
      if (!socket.writableEnded) listener(request, response);
      return;
    }
    // The answer in flight is found from the connection; one waiting for its turn, from its request.
    (request as Linked)[RESPONSE] = response;
    response.once('socket', () => {
      if (!takenOver.has(response) && !socket.writableEnded) listener(request, response);
    });
  };
}

/**
 * The answer to the last request read on the connection, while it is not sent: every earlier answer is
 * sent before it. (Node's parser holds that request until its answer is sent.)
 */
export function pendingAnswer(socket: Socket): ServerResponse | undefined {
  const incoming = (socket as HttpSocket).parser?.incoming;
  if (!incoming) return undefined;
  const inFlight = (socket as HttpSocket)._httpMessage;
  const last = incoming[RESPONSE] ?? (inFlight?.req === incoming ? inFlight : undefined);
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
  once(response, ['socket', 'close'], then);
}

/** Calls `then` once `response` is sent, or closed unsent. */
export function afterAnswer(response: ServerResponse, then: () => void): void {
  once(response, ['finish', 'close'], then);
}

/** Calls `then` once no answer is in flight on the connection (each queued one is sent in turn). */
export function whenIdle(socket: Socket, then: () => void): void {
  const inFlight = (socket as HttpSocket)._httpMessage;
  if (!inFlight || inFlight.destroyed || socket.destroyed) then();
  else afterAnswer(inFlight, () => whenIdle(socket, then));
}

function once(response: ServerResponse, events: string[], then: () => void): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    then();
  };
  for (const event of events) response.once(event, go);
}

/**
 * The edge writes the connection's last answer itself (client-errors.ts), after `after`, the last of
 * those owed: the connection is not to be closed once that is sent, even if the client half-closed.
 */
export function edgeAnswersAfter(socket: Socket, after: ServerResponse): void {
  (socket as HttpSocket)[EDGE_AFTER] = after;
}

/**
 * Whether the connection's close is the edge's to make now: it has an answer of its own to write after
 * the last answer owed, which was just sent without announcing a close.
 */
export function edgeAnswersNext(socket: Socket): boolean {
  const after = (socket as HttpSocket)[EDGE_AFTER];
  return after !== undefined && after.writableFinished && !announcedClose(after);
}

/** Whether `response` told its client that the connection closes after it. */
export function announcedClose(response: ServerResponse): boolean {
  if (!response.shouldKeepAlive) return true;
  const connection = response.getHeader('connection');
  return typeof connection === 'string' && /(^|,)\s*close\s*(,|$)/i.test(connection);
}
