import { isIP } from 'node:net';

/** A Host header read the way browsers and the platform read it (the WHATWG URL host parser). */
export interface HostName {
  /** Lower case, punycode, IPv4 in dotted decimal, IPv6 in brackets, no trailing dot. */
  hostname: string;
  /** The port written in the header, or undefined for none. */
  port?: number;
}

/** Characters a Host header may never hold: the parser would read them as a path, userinfo or query. */
const NOT_A_HOST = /[/?#@\\\s]/;
const CACHE_LIMIT = 1024;
const cache = new Map<string, HostName | null>();

/**
 * A Host header (`Docs.Example.com.:8080`, `0x7f.1`, `[::1]`) made canonical with the WHATWG URL
 * parser, so every spelling of one name is that name; undefined when it names no host (empty, a port
 * out of range, userinfo, a path). Cached: it runs on every request and a server sees few hosts.
 */
export function parseHostHeader(header: string): HostName | undefined {
  const known = cache.get(header);
  if (known !== undefined) return known ?? undefined;
  const parsed = parse(header);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(header, parsed ?? null);
  return parsed;
}

function parse(header: string): HostName | undefined {
  if (header === '' || NOT_A_HOST.test(header)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return undefined;
  }
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === '') return undefined;
  return url.port === '' ? { hostname } : { hostname, port: Number(url.port) };
}

/** A host name that is an IP address (`127.0.0.1`, `[::1]`), as parseHostHeader or parseDomain give it. */
export function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || isIP(hostname) !== 0;
}
