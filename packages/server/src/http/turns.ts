import type { RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_WAITING_REQUESTS } from './limits.ts';
import { sliceAgain, type Turns } from './read-slices.ts';
import { endAndLinger } from './socket-answer.ts';

/** What the edge knows of one connection: all of it learnt from the requests Node emitted on it. */
interface Connection {
  /** The answer to the last request read, until it is sent. */
  last: ServerResponse | undefined;
  /** Requests read whose turn has not come. */
  waiting: number;
  /** The most that ever waited at once. */
  mostWaiting: number;
  /** Whether the edge stopped reading the connection. */
  held: boolean;
  /** Whether it is not to be read whatever its turns (handOver). */
  handedOver: boolean;
}

const connections = new WeakMap<Socket, Connection>();

function connectionOf(socket: Socket): Connection {
  let connection = connections.get(socket);
  if (connection === undefined) {
    connection = { last: undefined, waiting: 0, mostWaiting: 0, held: false, handedOver: false };
    connections.set(socket, connection);
    watch(socket, connection);
  }
  return connection;
}

function watch(socket: Socket, connection: Connection): void {
  // Node resumes a connection whenever a request's body is read, or dumped after its answer: while
  // the edge holds it, it is paused again at once (no read happens in between).
  socket.on('resume', () => {
    connection.held = false;
    pace(socket, connection);
  });
  socket.on('drain', () => pace(socket, connection));
}

/**
 * Node's own server stops reading a connection whose answers pile up unsent, until they drain; here
 * answers are not written before their turn, so the edge does it: with MAX_WAITING_REQUESTS waiting
 * for their turn, or while the client does not read the answers already written, the connection is
 * not read until that changes; what it already read waits unparsed (read-slices.ts).
 */
function pace(socket: Socket, connection: Connection): void {
  const hold = mustHold(socket, connection);
  if (hold === connection.held) return;
  connection.held = hold;
  if (hold) socket.pause();
  else socket.resume();
}

function mustHold(socket: Socket, connection: Connection): boolean {
  return connection.handedOver || connection.waiting >= MAX_WAITING_REQUESTS || socket.writableNeedDrain;
}

/**
 * Stops reading the connection, whatever its turns, until the function returned is called: what the
 * client sends meanwhile, its end included, waits in the socket (an ignored upgrade: ignored-upgrade.ts).
 */
export function handOver(socket: Socket): () => void {
  const connection = connectionOf(socket);
  connection.handedOver = true;
  // Paused even when held already: Node leaves an upgraded socket's flow undecided, which a read ends.
  connection.held = true;
  socket.pause();
  return () => {
    connection.handedOver = false;
    pace(socket, connection);
  };
}

/** What reading a connection in slices needs of its turns (read-slices.ts). */
export const turnsForReading: Turns = {
  mayParse(socket) {
    const connection = connections.get(socket);
    if (connection === undefined) return true;
    pace(socket, connection);
    return !connection.held;
  },
  pipelines: (socket) => (connections.get(socket)?.mostWaiting ?? 0) > 0,
};

/** What a connection's turns stand at: requests waiting, the most that ever waited, whether it is read. */
export function turnsOf(socket: Socket): { waiting: number; mostWaiting: number; held: boolean } {
  const connection = connections.get(socket);
  return {
    waiting: connection?.waiting ?? 0,
    mostWaiting: connection?.mostWaiting ?? 0,
    held: connection?.held ?? false,
  };
}

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
  // Shared by every request: a request waiting for its turn holds no function of its own (a flood
  // queues one read's worth at once, some 1,500 requests, and each closure is garbage to collect).
  function onTurn(this: ServerResponse): void {
    const socket = this.req.socket;
    const connection = connections.get(socket)!;
    connection.waiting--;
    pace(socket, connection);
    this.on('finish', onAnswered);
    // The turn passes when the answer before is sent, which is no I/O of the event loop: run now, a
    // connection's queue would run to its end before any other client is read.
    setImmediate(runInTurn, listener, this);
  }
  return (request, response) => {
    if (request.httpVersionMinor === 0 && request.headers['transfer-encoding'] !== undefined) {
      response.setHeader('connection', 'close');
    }
    const socket = request.socket;
    const connection = connectionOf(socket);
    connection.last = response;
    if (response.socket !== null) {
      response.on('finish', onAnswered);
      if (!socket.writableEnded) listener(request, response);
      return;
    }
    // A connection closed with requests waiting costs nothing more per request: each waits on its
    // answer's 'socket' (emitted once), which a closed connection never gives. Only an answer whose
    // turn came can be sent, so 'finish' is listened for from then on.
    if (connection.mostWaiting === 0) sliceAgain(socket);
    connection.waiting++;
    if (connection.waiting > connection.mostWaiting) connection.mostWaiting = connection.waiting;
    pace(socket, connection);
    response.on('socket', onTurn);
  };
}

function runInTurn(listener: RequestListener, response: ServerResponse): void {
  if (!takenOver.has(response) && !response.req.socket.writableEnded) listener(response.req, response);
}

/** An answer was sent (`this`): nothing is kept of an idle connection's last exchange. */
function onAnswered(this: ServerResponse): void {
  const socket = this.req.socket;
  const connection = connections.get(socket);
  if (connection?.last === this) connection.last = undefined;
  lingerInsteadOfDestroy(socket);
}

/** The answer to the last request read on the connection, while it is not sent. */
export function pendingAnswer(socket: Socket): ServerResponse | undefined {
  const last = connections.get(socket)?.last;
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

/** Calls `then` once every answer owed on the connection is sent (they are sent in order). */
export function whenIdle(socket: Socket, then: () => void): void {
  const last = pendingAnswer(socket);
  if (last === undefined || socket.destroyed) then();
  else afterAnswer(last, () => whenIdle(socket, then));
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

/** Whether `response` told its client that the connection closes after it. */
export function announcedClose(response: ServerResponse): boolean {
  if (!response.shouldKeepAlive) return true;
  const connection = response.getHeader('connection');
  return typeof connection === 'string' && /(^|,)\s*close\s*(,|$)/i.test(connection);
}

/**
 * Calls `sent` once `response` is sent, before Node's own handling of a sent answer (which may end the
 * connection after it), or `lost` if it is closed unsent.
 */
export function whenSent(response: ServerResponse, sent: () => void, lost: () => void): void {
  let done = false;
  response.prependOnceListener('finish', () => {
    if (done) return;
    done = true;
    sent();
  });
  response.once('close', () => {
    if (done) return;
    done = true;
    lost();
  });
}

/**
 * Node closes a connection after its last answer (a closing one, or the last a half-closed client is
 * owed) with `destroySoon()`: an end, then a destroy once the answer is written, which resets the
 * connection when the client is still sending a body nobody read (a 405, 413 or 401 before it), and
 * the client may lose the answer. The edge takes that destroy back and lets the connection linger
 * (endAndLinger). checkNodeClosing (node-behaviour.ts) makes sure at start-up that Node still does so.
 */
function lingerInsteadOfDestroy(socket: Socket): void {
  if (socket.destroyed || !socket.writableEnded) return;
  if (!socket.listeners('finish').includes(socket.destroy)) return;
  socket.removeListener('finish', socket.destroy);
  endAndLinger(socket);
}
