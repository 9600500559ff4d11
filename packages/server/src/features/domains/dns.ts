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
  /** The servers asked, `ip` or `ip:port`. */
  getServers(): string[];
}

/** Each query gives up after this long (c-ares timeout × tries). */
export const DNS_TIMEOUT_MS = 2_000;
const TRIES = 2;

/**
 * Real DNS queries (c-ares), to `servers` (`ip` or `ip:port`; PETSTORE_DNS_SERVERS) or to the
 * system's resolvers. Every query is bounded: a silent server costs at most TRIES × timeoutMs.
 */
export function createDnsResolver(
  servers?: readonly string[],
  { timeoutMs = DNS_TIMEOUT_MS }: { timeoutMs?: number } = {},
): DnsResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: TRIES });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/** DNS answers that mean "no such record" (NXDOMAIN, NODATA) rather than "could not ask". */
export function isNoRecord(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ENODATA' || code === 'ENOTFOUND' || code === 'NXDOMAIN';
}

const WHY: Record<string, string> = {
  ETIMEOUT: 'no answer from DNS in time',
  ECONNREFUSED: 'the DNS server refused the connection',
  EREFUSED: 'the DNS server refused the query (REFUSED)',
  ESERVFAIL: 'the DNS server could not answer (SERVFAIL)',
  ECONNRESET: 'the DNS server closed the connection',
};

/** Why a query got no answer, in words: "the DNS server could not answer (SERVFAIL)". */
export function whyNoAnswer(error: Error): string {
  const code = (error as { code?: string }).code;
  return (code && WHY[code]) ?? `DNS error ${code ?? error.message}`;
}
