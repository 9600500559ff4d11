import { Resolver } from 'node:dns/promises';

/** The DNS questions verification asks; answers as node:dns gives them. */
export interface DnsResolver {
  resolveCname(name: string): Promise<string[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  resolveTxt(name: string): Promise<string[][]>;
  resolveCaa(
    name: string,
  ): Promise<{ critical: number; issue?: string; issuewild?: string; iodef?: string }[]>;
}

/** Each query gives up after this long (c-ares timeout × tries). */
export const DNS_TIMEOUT_MS = 2_000;
const TRIES = 2;

/**
 * Real DNS queries (c-ares), to `servers` (`ip` or `ip:port`; PETSTORE_DNS_SERVERS) or to the
 * system's resolvers. Every query is bounded: a silent server costs at most TRIES × DNS_TIMEOUT_MS.
 */
export function createDnsResolver(servers?: readonly string[]): DnsResolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: TRIES });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/** DNS answers that mean "no such record" rather than "could not ask". */
export function isNoRecord(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ENODATA' || code === 'ENOTFOUND' || code === 'NXDOMAIN';
}
