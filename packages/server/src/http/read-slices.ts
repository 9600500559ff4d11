import type { Socket } from 'node:net';
import { READ_SLICE_BYTES } from './limits.ts';

/** How a connection's reads reach its parser. */
interface Slicer {
  /** Node's own listener: it parses the bytes given to it, emitting every request they hold. */
  parse: (bytes: Buffer) => void;
  /** The parser it feeds: once Node frees it (an upgrade), this slicer is done. */
  parser: unknown;
  /** While a slice is being parsed, the bytes after it. */
  rest: Buffer | undefined;
  detached: boolean;
  onData: (bytes: Buffer) => void;
}

type HttpSocket = Socket & { parser?: unknown };

const slicers = new WeakMap<Socket, Slicer>();

/**
 * Node's HTTP server parses all of one read before a pause can take effect: up to 64 KiB, some 1,500
 * pipelined requests, each an object to build, queue and collect in one turn of the event loop. Here
 * the connection's reads reach the parser READ_SLICE_BYTES at a time, and no more once the connection is
 * paused, by Node or by `mayParse` (which pauses it when it says no: see turns.ts): the rest goes back into the socket,
 * unparsed, and comes again when it is resumed (its end too waits for it). Node documents that a `data`
 * listener takes the socket off its parser's direct reading; the bytes then reach Node's own listener,
 * which this one takes the place of.
 */
export function sliceReads(socket: Socket, mayParse: (socket: Socket) => boolean): void {
  const http = socket as HttpSocket;
  if (http.parser === undefined || http.parser === null) return;
  const [parse, ...others] = socket.listeners('data') as ((bytes: Buffer) => void)[];
  if (parse === undefined || others.length > 0) {
    throw new Error(
      `Node ${process.version}'s HTTP server no longer reads a connection through one 'data' listener ` +
        '(http/read-slices.ts): run the Node version the lockfile pins (package-lock.json, node_modules/node)',
    );
  }
  const slicer: Slicer = {
    parse,
    parser: http.parser,
    rest: undefined,
    detached: false,
    onData: (bytes) => feed(http, slicer, bytes, mayParse),
  };
  slicers.set(socket, slicer);
  socket.removeListener('data', parse);
  socket.on('data', slicer.onData);
}

function feed(socket: HttpSocket, slicer: Slicer, bytes: Buffer, mayParse: (socket: Socket) => boolean) {
  let next: Buffer | undefined = bytes;
  while (next !== undefined) {
    if (socket.destroyed || socket.parser !== slicer.parser) return;
    if (socket.isPaused() || !mayParse(socket)) {
      // Paused for the stream too (a resume may be under way): else the bytes would come straight back.
      socket.pause();
      socket.unshift(next);
      return;
    }
    slicer.rest = next.length > READ_SLICE_BYTES ? next.subarray(READ_SLICE_BYTES) : undefined;
    slicer.parse(next.length > READ_SLICE_BYTES ? next.subarray(0, READ_SLICE_BYTES) : next);
    if (slicer.detached) return;
    next = slicer.rest;
    slicer.rest = undefined;
  }
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
