import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';

/** The client's address and scheme, read as the framework's `request.ip` and `request.protocol` are. */
export interface ClientOrigin {
  ip: string;
  https: boolean;
}

const lastEntry = (value: string) => {
  const comma = value.lastIndexOf(',');
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
};

/**
 * How the framework (Fastify's `trustProxy`, with the same proxy-addr) reads a request's client
 * address and scheme: X-Forwarded-For and X-Forwarded-Proto count only from a trusted peer.
 */
export function clientOriginReader(trustProxy: boolean | string): (request: IncomingMessage) => ClientOrigin {
  const socketOrigin = (request: IncomingMessage): ClientOrigin => ({
    ip: request.socket.remoteAddress ?? '',
    https: (request.socket as TLSSocket).encrypted === true,
  });
  if (trustProxy === false) return socketOrigin;
  const trusted =
    trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  return (request) => {
    const addresses = proxyAddr.all(request, trusted);
    const forwardedProto = request.headers['x-forwarded-proto'];
    const peer = request.socket.remoteAddress;
    const https =
      typeof forwardedProto === 'string' && forwardedProto !== '' && peer !== undefined && trusted(peer, 0)
        ? lastEntry(forwardedProto) === 'https'
        : socketOrigin(request).https;
    return { ip: addresses[addresses.length - 1] ?? '', https };
  };
}
