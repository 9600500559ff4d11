import type { Socket } from 'node:net';
import { type ApiError, errorBody } from '../errors.ts';
import { LINGER_MS } from './limits.ts';
import { JSON_CONTENT_TYPE } from './send-error.ts';
// Not an ESM import of node:http: its namespace loads Node's fetch (65 ms, 14 MB at start).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * An Error response written straight to a socket, for answers given outside any request the framework
 * parsed (malformed HTTP, timeouts, refused connections). The connection is always closed after it.
 */
export function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorBody(error, requestId));
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    ...error.headers,
    'content-type': JSON_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    date: new Date().toUTCString(),
    connection: 'close',
  };
  let head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}\r\n${body}`;
}

const lingering = new WeakSet<Socket>();

/**
 * Half-closes the connection (after `data`, if any), then keeps reading and discarding what the client
 * still sends until it closes its side or LINGER_MS pass. Closing at once with unread data would send a
 * reset, and the client could lose the answer it has not read yet.
 */
export function endAndLinger(socket: Socket, data?: string): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  });
  if (!socket.writable) return;
  if (data === undefined) socket.end();
  else socket.end(data);
}
