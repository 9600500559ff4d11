import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { takeUnparsed } from './read-slices.ts';
import { handOver, whenIdle } from './turns.ts';

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
 * the bytes after it, a pipelined request included, unless an `upgrade` listener takes the socket (a
 * `shouldUpgradeCallback` answering no leaves them dropped too). This one takes it and gives it back to
 * HTTP: the request's head without the upgrade token, then the bytes that followed it, are read again
 * as fresh HTTP on the same connection, once the answers owed to earlier requests on it are sent (the
 * connection is not read until then, whatever its turns: see handOver). The
 * socket is handed back as Node documents for any connection made elsewhere, by emitting `connection`
 * (the connection gate knows it, and counts it once).
 */
export function ignoreUpgrades(server: Server): void {
  server.on('upgrade', (request: IncomingMessage, duplex: Duplex, rest: Buffer) => {
    const socket = duplex as Socket;
    // Not read meanwhile: what comes waits behind the bytes put back now, which keep its end from
    // passing unseen. Node hands over the rest of the slice it was parsing; the slices after it are
    // still the edge's.
    const release = handOver(socket);
    const head = Buffer.from(headWithoutUpgrade(request), 'latin1');
    socket.unshift(Buffer.concat([head, rest, takeUnparsed(socket)]));
    const resume = () => {
      if (socket.destroyed || socket.writableEnded) return;
      server.emit('connection', socket);
      release();
    };
    whenIdle(socket, resume);
  });
}
