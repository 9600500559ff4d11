import { isIP } from 'node:net';
import { getDomain, getPublicSuffix } from 'tldts';
import { isIpLiteral } from '../../http/host-name.ts';
import { isServiceName } from '../../http/service-names.ts';

export interface DomainName {
  /** Lower case, punycode, no trailing dot: `docs.example.com`, `xn--bcher-kva.example`. */
  hostname: string;
  /** A registrable domain itself (`example.com`): needs ALIAS/ANAME and a TXT record, not a CNAME. */
  apex: boolean;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export interface ServiceNames {
  /** Projects' default hosts live under it: never a custom domain. */
  siteDomain: string;
  apiHost?: string;
}

/**
 * A custom domain as typed by a person (`Docs.Example.com.`, `bücher.example`), made canonical with the
 * WHATWG URL host parser (the one browsers and the router use, so `0x7f.1`, `2130706433` and
 * `127。0。0。1` are all the address 127.0.0.1) and checked; or why it cannot be one. IP addresses,
 * wildcards, single labels, public suffixes and the service's own names are refused. The apex is found
 * with the public suffix list.
 */
export function parseDomain(text: string, own: ServiceNames): DomainName | { problem: string } {
  const typed = text.trim().replace(/\.$/, '');
  if (typed === '') return { problem: 'enter a domain name, such as docs.example.com' };
  if (typed.includes('*')) return { problem: 'wildcard domains are not supported: add each name on its own' };
  if (typed.startsWith('[') || isIP(typed)) return { problem: 'an IP address is not a domain name' };
  if (/[/:@?#\\\s]/.test(typed)) {
    return { problem: 'enter the domain name alone, without scheme, port or path' };
  }
  const hostname = canonicalHost(typed);
  if (hostname === undefined) return { problem: `${typed} is not a valid domain name` };
  if (isIpLiteral(hostname))
    return { problem: `an IP address is not a domain name (${typed} is ${hostname})` };
  if (hostname.length > 253 || !hostname.split('.').every((label) => LABEL.test(label))) {
    return { problem: `${typed} is not a valid domain name` };
  }
  if (!hostname.includes('.')) return { problem: `${hostname} is a single label: use a full domain name` };
  if (hostname === 'localhost' || hostname.endsWith('.localhost'))
    return { problem: 'names under localhost cannot be used' };
  const names = { siteDomain: own.siteDomain, apiHosts: own.apiHost ? [own.apiHost] : [] };
  if (isServiceName(hostname, names)) return { problem: `${hostname} belongs to this service` };
  const suffix = getPublicSuffix(hostname, { allowPrivateDomains: true });
  if (suffix === hostname)
    return { problem: `${hostname} is a public suffix: use a domain registered under it` };
  const registrable = getDomain(hostname, { allowPrivateDomains: true });
  return { hostname, apex: registrable === hostname };
}

function canonicalHost(typed: string): string | undefined {
  try {
    const { hostname } = new URL(`http://${typed}`);
    return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  } catch {
    return undefined;
  }
}
