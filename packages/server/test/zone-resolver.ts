import { createDnsResolver, type DnsResolver } from '../src/features/domains/dns.ts';
import type { ZoneServer } from './dns-zone-server.ts';

/**
 * The per-try timeout asked for while the zone answers late or never (every query then times out
 * whatever it is); c-ares waits about 250 ms a try at least, so a query fails after about 0.6 s.
 */
const GIVE_UP_MS = 1;

/**
 * Real queries to the test zone. While the zone answers (or refuses, or fails), the production timeout
 * applies, so a busy machine never turns an answer into a timeout; while it is silent or slow, queries
 * give up as soon as c-ares lets them, as they would after seconds, without the seconds.
 */
export function zoneResolver(zone: ZoneServer): DnsResolver {
  const patient = createDnsResolver([zone.address]);
  const hasty = createDnsResolver([zone.address], { timeoutMs: GIVE_UP_MS });
  const now = () => {
    const mode = zone.mode();
    return mode === 'silent' || typeof mode === 'object' ? hasty : patient;
  };
  return {
    resolveCname: (name) => now().resolveCname(name),
    resolve4: (name) => now().resolve4(name),
    resolve6: (name) => now().resolve6(name),
    resolveTxt: (name) => now().resolveTxt(name),
    resolveCaa: (name) => now().resolveCaa(name),
    getServers: () => patient.getServers(),
  };
}
