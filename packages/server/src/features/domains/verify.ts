import { type DnsResolver, isNoRecord, whyNoAnswer } from './dns.ts';
import type { CheckState, RecordCheck } from './check-records.ts';
import { expectedRecords, txtName, txtValue } from './records.ts';

export interface Verification {
  state: CheckState;
  /** Why it is not verified (or why DNS gave no answer), in words a person can act on; null when verified. */
  reason: string | null;
  records: RecordCheck[];
  /** Things that do not stop verification but will stop a certificate (CAA). */
  warnings: string[];
}

export interface VerifyInput {
  hostname: string;
  apex: boolean;
  token: string;
  /** The project's own target, `<slug>.<site domain>`. */
  target: string;
  /** A claim on a name another project held: the TXT ownership record must be seen as well. */
  proofTxt?: boolean;
}

const MAX_CNAME_HOPS = 8;
const PROPAGATION = 'DNS changes can take up to 48 hours to be seen everywhere';

/** A query's answer, [] for "no such record", or the error for "could not ask". */
async function ask<T>(query: () => Promise<T[]>): Promise<T[] | Error> {
  try {
    return await query();
  } catch (error) {
    return isNoRecord(error) ? [] : (error as Error);
  }
}

const unreachable = (name: string, error: Error): string => `${whyNoAnswer(error)} for ${name}`;

/** The CNAME chain from `name` (at most MAX_CNAME_HOPS), or the error when any hop got no answer. */
async function cnameChain(resolver: DnsResolver, name: string): Promise<string[] | Error> {
  const chain: string[] = [];
  let current = name;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const next = await ask(() => resolver.resolveCname(current));
    if (next instanceof Error) return next;
    if (next.length === 0) break;
    current = next[0]!.toLowerCase().replace(/\.$/, '');
    chain.push(current);
  }
  return chain;
}

async function verifySubdomain(
  resolver: DnsResolver,
  input: VerifyInput,
): Promise<Omit<Verification, 'warnings'>> {
  const [expected] = expectedRecords(input, input.target);
  const chain = await cnameChain(resolver, input.hostname);
  if (chain instanceof Error) {
    return {
      state: 'unanswered',
      reason: unreachable(input.hostname, chain),
      records: [{ ...expected!, ok: false, seen: [] }],
    };
  }
  if (chain.includes(input.target)) {
    const cname = { ...expected!, ok: true, seen: chain };
    if (!input.proofTxt) return { state: 'verified', reason: null, records: [cname] };
    return withOwnership(resolver, input, cname);
  }
  if (chain.length > 0) {
    return {
      state: 'failed',
      reason: `the CNAME of ${input.hostname} points to ${chain[0]}, not to ${input.target}: change the CNAME to ${input.target}`,
      records: [{ ...expected!, ok: false, seen: chain }],
    };
  }
  const answers = [
    await ask(() => resolver.resolve4(input.hostname)),
    await ask(() => resolver.resolve6(input.hostname)),
  ];
  const failure = answers.find((answer) => answer instanceof Error);
  if (failure) {
    return {
      state: 'unanswered',
      reason: unreachable(input.hostname, failure),
      records: [{ ...expected!, ok: false, seen: [] }],
    };
  }
  const addresses = (answers as string[][]).flat();
  if (addresses.length > 0) {
    const kind = addresses[0]!.includes(':') ? 'an AAAA' : 'an A';
    return {
      state: 'failed',
      reason: `${kind} record ${addresses.join(', ')} exists for ${input.hostname}; delete it, then add the CNAME to ${input.target}`,
      records: [{ ...expected!, ok: false, seen: addresses }],
    };
  }
  return {
    state: 'pending',
    reason: `no CNAME for ${input.hostname} yet: add it at your DNS provider (${PROPAGATION})`,
    records: [{ ...expected!, ok: false, seen: [] }],
  };
}

/** A contested subdomain whose CNAME is right: verified only when its TXT ownership record is seen too. */
async function withOwnership(
  resolver: DnsResolver,
  input: VerifyInput,
  cname: RecordCheck,
): Promise<Omit<Verification, 'warnings'>> {
  const [, txtRecord] = expectedRecords(input, input.target);
  const txt = await ask(() => resolver.resolveTxt(txtName(input.hostname)));
  if (txt instanceof Error) {
    return {
      state: 'unanswered',
      reason: unreachable(txtName(input.hostname), txt),
      records: [cname, { ...txtRecord!, ok: false, seen: [] }],
    };
  }
  const values = txt.map((chunks) => chunks.join(''));
  const ok = values.includes(txtValue(input.token));
  const records = [cname, { ...txtRecord!, ok, seen: values }];
  if (ok) return { state: 'verified', reason: null, records };
  return {
    state: 'failed',
    reason: `the TXT record ${txtName(input.hostname)} is missing or has another value: set it to ${txtValue(input.token)} to prove the name is yours`,
    records,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

async function verifyApex(
  resolver: DnsResolver,
  input: VerifyInput,
): Promise<Omit<Verification, 'warnings'>> {
  const [aliasRecord, txtRecord] = expectedRecords(input, input.target);
  const [txt, own4, own6, target4, target6] = await Promise.all([
    ask(() => resolver.resolveTxt(txtName(input.hostname))),
    ask(() => resolver.resolve4(input.hostname)),
    ask(() => resolver.resolve6(input.hostname)),
    ask(() => resolver.resolve4(input.target)),
    ask(() => resolver.resolve6(input.target)),
  ]);
  const failure = [txt, own4, own6, target4, target6].find((answer) => answer instanceof Error);
  const txtValues = Array.isArray(txt) ? txt.map((chunks) => chunks.join('')) : [];
  const addresses = [own4, own6].filter((a): a is string[] => Array.isArray(a)).flat();
  const targetAddresses = [target4, target6].filter((a): a is string[] => Array.isArray(a)).flat();
  const txtOk = txtValues.includes(txtValue(input.token));
  const aliasOk = addresses.length > 0 && sameSet(addresses, targetAddresses);
  const records = [
    { ...aliasRecord!, ok: aliasOk, seen: addresses },
    { ...txtRecord!, ok: txtOk, seen: txtValues },
  ];
  if (txtOk && aliasOk) return { state: 'verified', reason: null, records };
  if (failure) return { state: 'unanswered', reason: unreachable(input.hostname, failure as Error), records };
  if (addresses.length > 0 && !aliasOk) {
    return {
      state: 'failed',
      reason: `the apex ${input.hostname} resolves to ${addresses.join(', ')}, not to ${input.target} (${targetAddresses.join(', ') || 'no address'}): replace its A/AAAA records with an ALIAS or ANAME record to ${input.target}`,
      records,
    };
  }
  if (aliasOk || txtValues.length > 0) {
    return {
      state: 'failed',
      reason: !txtOk
        ? `the TXT record ${txtName(input.hostname)} is missing or has another value: set it to ${txtValue(input.token)}`
        : `the apex ${input.hostname} has no address yet: add an ALIAS or ANAME record to ${input.target}`,
      records,
    };
  }
  return {
    state: 'pending',
    reason: `no records for ${input.hostname} yet: add the ALIAS/ANAME and TXT records (${PROPAGATION})`,
    records,
  };
}

/**
 * CAA records (RFC 8659) on the name or its nearest ancestor that has some: when they exist and none
 * lets `caIdentity` issue, a certificate will be refused. Reported as a warning with its fix.
 */
async function caaWarnings(resolver: DnsResolver, hostname: string, caIdentity: string): Promise<string[]> {
  const labels = hostname.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const name = labels.slice(i).join('.');
    const records = await ask(() => resolver.resolveCaa(name));
    if (records instanceof Error || records.length === 0) continue;
    const issuers = records
      .filter((r) => r.issue !== undefined)
      .map((r) => r.issue!.split(';')[0]!.trim().toLowerCase());
    if (issuers.length === 0 || issuers.includes(caIdentity)) return [];
    const allowed = issuers.filter(Boolean);
    return [
      `the CAA records of ${name} ${allowed.length ? `allow only ${allowed.join(', ')}` : 'allow no certificate authority'} to issue certificates, so no certificate can be issued for ${hostname}: add the record ${name}. CAA 0 issue "${caIdentity}"`,
    ];
  }
  return [];
}

/** Checks a domain's records with real DNS queries, now. */
export async function verifyDomain(
  resolver: DnsResolver,
  input: VerifyInput,
  caIdentity: string,
): Promise<Verification> {
  const [result, warnings] = await Promise.all([
    input.apex ? verifyApex(resolver, input) : verifySubdomain(resolver, input),
    caaWarnings(resolver, input.hostname, caIdentity),
  ]);
  return { ...result, warnings };
}
