import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../errors.ts';
import type { HttpLimits } from './limits.ts';
import { endAndLinger, rawErrorResponse } from './socket-answer.ts';
import { normaliseAddress } from './trusted-proxies.ts';

export type RefusalCause = 'total' | 'per_address';

export interface ConnectionGate {
  /** Connections open now. */
  open(): number;
  /** Connections refused since start, by cause. */
  refused(): Record<RefusalCause, number>;
}

export interface GateOptions {
  limits: Pick<HttpLimits, 'maxConnections' | 'maxConnectionsPerAddress'>;
  /** Peers exempt from the per-address cap (trusted proxies, which carry many clients). */
  exempt: (address: string) => boolean;
  log: FastifyBaseLogger;
}

/** Refused connections are logged at most this often, with how many were refused meanwhile. */
const REFUSAL_LOG_INTERVAL_MS = 1_000;

const refusal = (cause: RefusalCause, limit: number): ApiError =>
  cause === 'total'
    ? new ApiError(
        'service_unavailable',
        `the server holds its maximum of ${limit} connections; retry later`,
        {
          headers: { 'retry-after': '1' },
        },
      )
    : new ApiError(
        'too_many_connections',
        `this client address already holds ${limit} open connections; reuse or close them`,
        { headers: { 'retry-after': '1' } },
      );

/**
 * Puts a gate in front of the HTTP server's own connection handling: a connection beyond the total cap,
 * or beyond the per-address cap of its peer, is answered with an Error and closed before any byte of
 * it is parsed.
 */
export function gateConnections(server: Server, options: GateOptions): ConnectionGate {
  const { limits, exempt, log } = options;
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const perAddress = new Map<string, number>();
  const refused: Record<RefusalCause, number> = { total: 0, per_address: 0 };
  let open = 0;
  let unlogged = 0;
  let lastLogAt = 0;

  const refuse = (socket: Socket, cause: RefusalCause, address: string) => {
    refused[cause]++;
    unlogged++;
    socket.on('error', () => {});
    socket.resume();
    const limit = cause === 'total' ? limits.maxConnections : limits.maxConnectionsPerAddress;
    endAndLinger(socket, rawErrorResponse(refusal(cause, limit), randomUUID()));
    const now = Date.now();
    if (now - lastLogAt >= REFUSAL_LOG_INTERVAL_MS) {
      log.warn({ cause, address, refused: unlogged, open }, 'connections refused');
      lastLogAt = now;
      unlogged = 0;
    }
  };

  const admitted = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    // Given back to HTTP after an ignored upgrade (ignored-upgrade.ts): admitted, and counted, already.
    if (admitted.has(socket)) {
      for (const handler of handlers) handler.call(server, socket);
      return;
    }
    const address = normaliseAddress(socket.remoteAddress ?? '');
    const counted = !exempt(address);
    const held = counted ? (perAddress.get(address) ?? 0) : 0;
    if (open >= limits.maxConnections) return refuse(socket, 'total', address);
    if (counted && held >= limits.maxConnectionsPerAddress) return refuse(socket, 'per_address', address);
    admitted.add(socket);
    open++;
    if (counted) perAddress.set(address, held + 1);
    socket.once('close', () => {
      open--;
      if (!counted) return;
      const left = perAddress.get(address)! - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
    for (const handler of handlers) handler.call(server, socket);
  });

  return { open: () => open, refused: () => ({ ...refused }) };
}
