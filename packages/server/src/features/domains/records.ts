import { getDomain } from 'tldts';
import type { ExpectedRecord } from './check-records.ts';

/** The TXT value proving an apex domain belongs to the project that added it. */
export const txtValue = (token: string): string => `petstore-verify=${token}`;

/** The name of the apex's ownership record. */
export const txtName = (hostname: string): string => `_petstore.${hostname}`;

/**
 * What to create: a subdomain gets a CNAME to the project's own target (`<slug>.<site domain>`, so a
 * record left behind after removal can only ever point at this project, never be claimed by another);
 * an apex cannot hold a CNAME, so it gets an ALIAS/ANAME to the same target and a TXT record proving
 * ownership (a flattened record cannot show which project it points to). A subdomain claimed while
 * another project holds the name needs that TXT record too.
 */
export function expectedRecords(
  domain: { hostname: string; apex: boolean; token: string; proofTxt?: boolean },
  target: string,
): ExpectedRecord[] {
  if (!domain.apex) {
    const cname: ExpectedRecord = { type: 'CNAME', name: domain.hostname, value: target };
    // A claim on a name another project holds proves ownership with the TXT record as well.
    return domain.proofTxt
      ? [cname, { type: 'TXT', name: txtName(domain.hostname), value: txtValue(domain.token) }]
      : [cname];
  }
  return [
    { type: 'ALIAS', name: domain.hostname, value: target },
    { type: 'TXT', name: txtName(domain.hostname), value: txtValue(domain.token) },
  ];
}

/**
 * The record's name as most DNS providers want it typed, relative to the registered domain's zone:
 * `docs` for docs.example.com, `_petstore` for _petstore.example.com, `@` for example.com itself.
 */
export function providerName(name: string): string {
  const zone = getDomain(name, { allowPrivateDomains: true, validateHostname: false });
  if (!zone || zone === name) return '@';
  return name.slice(0, -(zone.length + 1));
}
