import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
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
 * Drops the entries of `X-Forwarded-For` that are not IP addresses, in place: a proxy passes on what
 * the client wrote before its own entry, and proxy-addr takes the first entry it does not trust as the
 * client's address, whatever it holds. Entries are trimmed; `[v6]:port` and `v4:port` forms are not
 * addresses either (proxies append bare addresses). Once per request, before its address is read.
 */
export function keepForwardedAddresses(request: IncomingMessage): void {
  const header = request.headers['x-forwarded-for'];
  if (header === undefined) return;
  const entries = String(header).split(',');
  const addresses = entries.map((entry) => entry.trim()).filter((entry) => isIP(entry) !== 0);
  if (addresses.length === entries.length) return;
  if (addresses.length === 0) delete request.headers['x-forwarded-for'];
  else request.headers['x-forwarded-for'] = addresses.join(', ');
}

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
    keepForwardedAddresses(request);
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
