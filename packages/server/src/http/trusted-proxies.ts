import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** The names Fastify's trustProxy (proxy-addr) accepts for well-known ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** `::ffff:10.0.0.1` (an IPv4 client of a dual-stack socket) is the IPv4 address `10.0.0.1`. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/**
 * Whether a peer address is one of the proxies named by TRUST_PROXY (`true`: every peer; a comma list
 * of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal).
 */
export function trustedProxyMatcher(trustProxy: boolean | string): (address: string) => boolean {
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  const list = new BlockList();
  const entries = trustProxy
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => (Object.hasOwn(NAMED_RANGES, entry) ? NAMED_RANGES[entry]! : [entry]));
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const peer = normaliseAddress(address);
    return list.check(peer, isIPv6(peer) ? 'ipv6' : 'ipv4');
  };
}
