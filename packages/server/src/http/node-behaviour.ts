import type { Server } from 'node:http';
import { Socket } from 'node:net';

/**
 * What the edge relies on in Node's HTTP server beyond its documented API, checked when the edge is
 * installed so that a Node that behaves otherwise fails start-up with this message rather than
 * resetting connections: Node closes a connection after its last answer with `destroySoon()`, which
 * ends the socket and destroys it once written by listening for `finish` with `socket.destroy`; the
 * edge takes that listener back to let the connection linger (http/turns.ts). A fresh, unconnected
 * socket shows it without any network: its end waits for a connection that never comes.
 */
export function checkNodeClosing(socket: Socket = new Socket()): void {
  try {
    socket.destroySoon();
    if (!socket.listeners('finish').includes(socket.destroy)) {
      throw new Error(
        `Node ${process.version} no longer closes a socket by destroySoon() destroying it on 'finish', ` +
          'which the HTTP edge takes back to let closing connections linger (http/turns.ts): ' +
          'run the Node version the lockfile pins (package-lock.json, node_modules/node), or adapt the edge',
      );
    }
  } finally {
    socket.destroy();
  }
}

/**
 * The edge answers every request a client sent before half-closing (http/edge.ts) by setting the HTTP
 * server's `httpAllowHalfOpen`, a property Node's server sets itself (false) but does not document:
 * a Node whose server no longer has it would ignore the setting and close such connections early.
 */
export function checkHalfOpen(server: Server): void {
  if (!Object.hasOwn(server, 'httpAllowHalfOpen')) {
    throw new Error(
      `Node ${process.version}'s HTTP server has no httpAllowHalfOpen, which the HTTP edge sets so that a ` +
        'client that half-closes still gets every answer (http/edge.ts): run the Node version the lockfile ' +
        'pins (package-lock.json, node_modules/node), or adapt the edge',
    );
  }
}
