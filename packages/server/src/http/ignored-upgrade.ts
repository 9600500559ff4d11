import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { whenIdle } from './turns.ts';

/**
 * The head of `request` as it would have been sent without asking to upgrade: its line and fields as
 * the parser read them (so already valid), but for the `upgrade` token of `Connection`.
 */
export function headWithoutUpgrade(request: IncomingMessage): string {
  let head = `${request.method} ${request.url} HTTP/${request.httpVersion}\r\n`;
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    let value = raw[i + 1]!;
    if (name.toLowerCase() === 'connection') {
      value = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token !== '' && token.toLowerCase() !== 'upgrade')
        .join(', ');
      if (value === '') continue;
    }
    head += `${name}: ${value}\r\n`;
  }
  return `${head}\r\n`;
}

/**
 * This server speaks no other protocol, so it ignores `Upgrade` and stays on HTTP/1.1 (RFC 9110 §7.8).
 * Node's parser stops at a request asking to upgrade (`Connection: upgrade` with `Upgrade`) and drops
 * the bytes after it, a pipelined request included, unless an `upgrade` listener takes the socket. This
 * one takes it and gives it back to HTTP: the request's head without the upgrade token, then the bytes
 * that followed it, are read again as fresh HTTP on the same connection (`serve`: Node's own connection
 * handling, without the connection gate, which counted the connection once already), once the answers
 * owed to earlier requests on it are sent.
 */
export function ignoreUpgrades(server: Server, serve: (socket: Socket) => void): void {
  server.on('upgrade', (request: IncomingMessage, duplex: Duplex, rest: Buffer) => {
    const socket = duplex as Socket;
    const resume = () => {
      if (socket.destroyed || socket.writableEnded) return;
      socket.unshift(Buffer.concat([Buffer.from(headWithoutUpgrade(request), 'latin1'), rest]));
      // Node's handling adds these two again and, unlike its others, did not take them off for the upgrade.
      socket.removeAllListeners('resume');
      socket.removeAllListeners('pause');
      serve(socket);
    };
    whenIdle(socket, resume);
  });
}
