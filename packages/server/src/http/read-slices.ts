import type { Socket } from 'node:net';
import { READ_SLICE_BYTES } from './limits.ts';

/** Reads of one request at most, none waiting, after which a connection is read Node's direct way. */
const DIRECT_AFTER_READS = 4;

/** What the edge needs of a connection's turns (turns.ts). */
export interface Turns {
  /** Whether more requests may be parsed now; if not, the connection is paused until they may. */
  mayParse(socket: Socket): boolean;
  /** Whether a request ever waited for its turn on the connection (it pipelines). */
  pipelines(socket: Socket): boolean;
}

type Listener = (...args: unknown[]) => void;

/** Node's HTTP parser, as far as the edge uses it: reading a socket's handle itself, or not. */
interface Parser {
  consume(handle: unknown): void;
  _consumed: boolean;
}

/** How a connection's reads reach its parser. */
interface Slicer {
  /** Node's own listener: it parses the bytes given to it, emitting every request they hold. */
  parse: (bytes: Buffer) => void;
  /** The parser it feeds: once Node frees it (an upgrade), this slicer is done. */
  parser: Parser;
  /** While a slice is being parsed, the bytes after it. */
  rest: Buffer | undefined;
  detached: boolean;
  onData: (bytes: Buffer) => void;
  /** Reads parsed whole with no request ever waiting, in a row. */
  quietReads: number;
  /** Whether the parser reads the socket itself (Node's own way), not through `onData`. */
  direct: boolean;
  /** Node's listeners that start and stop reading for a parser that reads the socket itself. */
  nodeReading: { resume: Listener; pause: Listener } | undefined;
}

type HttpSocket = Socket & { parser?: Parser | null; _handle?: { isStreamBase?: boolean } | null };

const slicers = new WeakMap<Socket, Slicer>();

/**
 * Node's HTTP server parses all of one read before a pause can take effect: up to 64 KiB, some 1,500
 * pipelined requests, each an object to build, queue and collect in one turn of the event loop. Here
 * a connection's reads reach the parser READ_SLICE_BYTES at a time, and no more once the connection is
 * paused, by Node or by `turns.mayParse` (which pauses it when it says no): the rest goes back into the
 * socket, unparsed, and comes again when it is resumed (its end too waits for it). Node documents that
 * a `data` listener takes the socket off its parser's direct reading; the bytes then reach Node's own
 * listener, which this one takes the place of.
 *
 * Going through the stream costs every read some 14k instructions, about 4% of an API request: a
 * connection whose first DIRECT_AFTER_READS reads each held one request at most, none waiting, is
 * given back to Node's direct reading, until a request waits on it (sliceAgain), for good. A client
 * that behaves first then floods gets one read parsed whole, once per connection.
 */
export function sliceReads(socket: Socket, turns: Turns): void {
  const http = socket as HttpSocket;
  const parser = http.parser;
  if (parser === undefined || parser === null) return;
  const [parse, ...others] = socket.listeners('data') as ((bytes: Buffer) => void)[];
  if (parse === undefined || others.length > 0) {
    throw new Error(
      `Node ${process.version}'s HTTP server no longer reads a connection through one 'data' listener ` +
        '(http/read-slices.ts): run the Node version the lockfile pins (package-lock.json, node_modules/node)',
    );
  }
  const slicer: Slicer = {
    parse,
    parser,
    rest: undefined,
    detached: false,
    onData: (bytes) => feed(http, slicer, bytes, turns),
    quietReads: 0,
    direct: false,
    nodeReading: nodeReadingOf(http, parser),
  };
  slicers.set(socket, slicer);
  socket.removeListener('data', parse);
  socket.on('data', slicer.onData);
}

/**
 * Node's `resume` and `pause` listeners for a parser that reads the socket itself, when Node's server
 * still works that way; else the connection is always read in slices.
 */
function nodeReadingOf(socket: HttpSocket, parser: Parser): Slicer['nodeReading'] {
  const resume = (socket.listeners('resume') as Listener[]).find((f) => f.name === 'onSocketResume');
  const pause = (socket.listeners('pause') as Listener[]).find((f) => f.name === 'onSocketPause');
  const consumes = typeof parser.consume === 'function' && socket._handle?.isStreamBase === true;
  return resume && pause && consumes ? { resume, pause } : undefined;
}

function feed(socket: HttpSocket, slicer: Slicer, bytes: Buffer, turns: Turns): void {
  let next: Buffer | undefined = bytes;
  let slices = 0;
  while (next !== undefined) {
    if (socket.destroyed || socket.parser !== slicer.parser) return;
    if (socket.isPaused() || !turns.mayParse(socket)) {
      // Paused for the stream too (a resume may be under way): else the bytes would come straight back.
      socket.pause();
      socket.unshift(next);
      return;
    }
    slicer.rest = next.length > READ_SLICE_BYTES ? next.subarray(READ_SLICE_BYTES) : undefined;
    slicer.parse(next.length > READ_SLICE_BYTES ? next.subarray(0, READ_SLICE_BYTES) : next);
    slices++;
    if (slicer.detached) return;
    next = slicer.rest;
    slicer.rest = undefined;
  }
  if (slices > 1 || turns.pipelines(socket)) {
    slicer.quietReads = -Infinity;
    return;
  }
  if (++slicer.quietReads >= DIRECT_AFTER_READS) readDirectly(socket, slicer);
}

/** Gives the connection back to its parser's own reading (Node's), between two reads. */
function readDirectly(socket: HttpSocket, slicer: Slicer): void {
  const reading = slicer.nodeReading;
  if (reading === undefined || socket.destroyed || socket.parser !== slicer.parser) return;
  // Bytes still in the stream would flow to no one once its listener is gone: another time.
  if (socket.readableLength > 0 || socket.isPaused()) return;
  socket.removeListener('data', slicer.onData);
  slicer.parser._consumed = true;
  slicer.parser.consume(socket._handle);
  socket.on('resume', reading.resume);
  socket.on('pause', reading.pause);
  slicer.direct = true;
}

/**
 * A request waits for its turn on the connection: if its parser reads the socket itself, its reads
 * go through slices again (after the one being parsed), for good.
 */
export function sliceAgain(socket: Socket): void {
  const slicer = slicers.get(socket);
  if (slicer === undefined || !slicer.direct) return;
  slicer.direct = false;
  slicer.quietReads = -Infinity;
  // Once the parser is done with the read it is in (Node takes a parser off a socket at that point).
  queueMicrotask(() => {
    const http = socket as HttpSocket;
    if (slicer.detached || socket.destroyed || http.parser !== slicer.parser) return;
    // Node's listener wrapper takes the parser off the socket and removes its resume and pause ones.
    socket.on('data', slicer.onData);
  });
}

/** Whether the connection's parser reads it itself (Node's direct way) rather than in slices. */
export function readsDirectly(socket: Socket): boolean {
  return slicers.get(socket)?.direct ?? false;
}

/**
 * Stops giving the connection's reads to its parser (Node stopped parsing it: an upgrade) and returns
 * the bytes read and not yet parsed, which follow the ones Node hands over with the upgrade.
 */
export function takeUnparsed(socket: Socket): Buffer {
  const slicer = slicers.get(socket);
  if (slicer === undefined || slicer.detached) return Buffer.alloc(0);
  slicer.detached = true;
  slicers.delete(socket);
  socket.removeListener('data', slicer.onData);
  const rest = slicer.rest ?? Buffer.alloc(0);
  slicer.rest = undefined;
  return rest;
}
