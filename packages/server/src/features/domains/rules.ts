import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { isPaid } from '../projects/rules.ts';
import type { CustomDomain, DomainRepository } from './domain-repository.ts';
import type { Project } from '../projects/project-repository.ts';
import type { Clock } from '../../time/clock.ts';
import type { DnsResolver } from './dns.ts';
import { parseDomain } from './hostname.ts';
import { mixedScriptProblem } from '../../text/mixed-script.ts';
import type { ExpectedRecord, RecordCheck } from './check-records.ts';
import { expectedRecords } from './records.ts';
import { type Verification, verifyDomain } from './verify.ts';

/** How long after adding a domain it is checked on its own before it is given up as failed. */
export const VERIFY_WINDOW_MS = 48 * 60 * 60_000;
/** Checks while waiting: a minute after adding, then further apart, at most every half hour. */
export const MIN_RECHECK_MS = 60_000;
export const MAX_RECHECK_MS = 30 * 60_000;
/** A verified domain is checked again this often: records removed later stop it being served. */
export const VERIFIED_RECHECK_MS = 6 * 60 * 60_000;
/**
 * A verified domain whose records are seen wrong stays served until answered checks have seen them
 * wrong for this long in a row; meanwhile it is checked every WRONG_RECHECK_MS.
 */
export const UNSERVE_AFTER_MS = 60 * 60_000;
export const WRONG_RECHECK_MS = 15 * 60_000;
/** After a check that got no DNS answer: retry in 1 minute, doubling per failure, at most MAX_RECHECK_MS. */
export const retryAfterMs = (failures: number): number =>
  Math.min(MAX_RECHECK_MS, MIN_RECHECK_MS * 2 ** Math.min(failures - 1, 16));
/** A failed domain (a failed or ended claim) is released, its name free again, this long after failing. */
export const RELEASE_FAILED_AFTER_MS = 7 * 24 * 60 * 60_000;
/** Domains a project may have, in any state, by plan; Enterprise: PETSTORE_ENTERPRISE_DOMAINS. */
export const DOMAINS_PER_PLAN: Record<string, number> = { pro: 10, business: 50, enterprise: 200 };
/** Adds per project per hour, and "Check now" per domain: at most one every CHECK_INTERVAL_MS. */
export const ADDS_PER_HOUR = 30;
export const CHECK_INTERVAL_MS = 10_000;
/** A check claimed by an instance that died is taken over after this long. */
export const CLAIM_LEASE_MS = 5 * 60_000;

export type DomainState = CustomDomain['state'] | 'suspended';

/** A domain as the dashboard and the CLI show it. */
export interface DomainView {
  hostname: string;
  state: DomainState;
  reason: string | null;
  primary: boolean;
  apex: boolean;
  records: (ExpectedRecord & { ok: boolean; seen: string[] })[];
  warnings: string[];
  /** When it was added (the order of the lists). */
  createdAt: number;
  checkedAt: number | null;
  verifiedAt: number | null;
  /** "Could not check: <why>, will retry" when the last check got no DNS answer; else null. */
  checkError: string | null;
}

/** Reasons are sentences: they start with a capital letter. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
/** A problem that starts with the name typed ("docs is a single label") reads "the name docs is …". */
const namedFirst = (problem: string, typed: string): string => {
  const name = typed.trim().replace(/\.$/, '');
  const first = problem.split(' ', 1)[0]!;
  return name && (first === name || first === domainToASCII(name.toLowerCase()))
    ? `the name ${problem}`
    : problem;
};
export const at = (time: number) => new Date(time).toISOString().slice(0, 16).replace('T', ' ');
const planName = (plan: string) => plan[0]!.toUpperCase() + plan.slice(1);

export interface DomainRulesDeps {
  /** Where checks ask. */
  resolver: DnsResolver;
  clock: Clock;
  siteDomain: string;
  apiHost?: string;
  /** The CAA identity of the certificate authority used for TLS, e.g. `letsencrypt.org`. */
  caIdentity: string;
  /** Domains an Enterprise project may have (PETSTORE_ENTERPRISE_DOMAINS); default 200. */
  enterpriseDomains?: number;
}

/** Why an add or a check is refused: a code of the error catalogue, and with rate_limited the wait. */
export interface RuleProblem {
  code: 'plan_required' | 'invalid_body' | 'domain_exists' | 'domain_limit_reached' | 'rate_limited';
  message: string;
  retryAfterSeconds?: number;
}

/**
 * The rules of custom domains, apart from who may apply them and how they are recorded (the domains
 * service, features/domains): which names a project may add, how a domain is shown, what a DNS check
 * saw (asked outside any transaction) and what it stores (settle-check.ts).
 */
export function createDomainRules(deps: DomainRulesDeps) {
  const { clock } = deps;
  const target = (project: Pick<Project, 'slug'>) => `${project.slug}.${deps.siteDomain}`;
  const domainsAllowed = (plan: string) =>
    plan === 'enterprise'
      ? (deps.enterpriseDomains ?? DOMAINS_PER_PLAN.enterprise!)
      : (DOMAINS_PER_PLAN[plan] ?? 0);
  /** Per instance, in memory: when each project added (last hour) and each domain was checked on demand. */
  const adds = new Map<string, number[]>();
  const lastCheck = new Map<string, number>();
  /** Never name another project: its default host (`zoo.<site domain>`) is said as "another project". */
  const siteName = new RegExp(`\\b[a-z0-9-]+\\.${deps.siteDomain.replaceAll('.', '\\.')}\\b`, 'g');
  const hideOthers = (text: string, own: string) =>
    text.replace(siteName, (name) => (name === own ? name : 'another project of this service'));

  const overLimit = (project: Pick<Project, 'plan'>): RuleProblem => ({
    code: 'domain_limit_reached',
    message: `the ${planName(project.plan)} plan allows ${domainsAllowed(project.plan)} custom domains per project; remove one first`,
  });
  const exists = (hostname: string): RuleProblem => ({
    code: 'domain_exists',
    message: `this project already has ${hostname}`,
  });

  return {
    target,
    allowed: domainsAllowed,
    overLimit,
    exists,

    /** The domain as people see it; `primary`: the one the others redirect to now (primaryOf). */
    view(domain: CustomDomain, project: Project, primary: string | undefined): DomainView {
      const expected = expectedRecords(domain, target(project));
      const seen = new Map(domain.checks.records.map((record) => [`${record.type} ${record.name}`, record]));
      const suspended = !isPaid(project);
      return {
        hostname: domain.hostname,
        state: suspended ? 'suspended' : domain.state,
        reason: suspended
          ? `The project is on the ${planName(project.plan)} plan: custom domains need Pro or above. The domain is not served until the plan is upgraded, then it comes back by itself`
          : domain.reason && sentence(domain.reason),
        primary: domain.hostname === primary,
        apex: domain.apex,
        records: expected.map((record) => {
          const check: RecordCheck | undefined = seen.get(`${record.type} ${record.name}`);
          return { ...record, ok: check?.ok ?? false, seen: check?.seen ?? [] };
        }),
        warnings: domain.checks.warnings,
        createdAt: domain.createdAt,
        checkedAt: domain.checkedAt,
        verifiedAt: domain.verifiedAt,
        checkError: domain.checkError && `Could not check: ${domain.checkError}, will retry`,
      };
    },

    /**
     * The new domain `text` names for the project, or why it cannot be added: the plan, the name, the
     * project's adds this hour, a name it has already, its plan's number of domains.
     */
    async newDomain(
      repo: Pick<DomainRepository, 'get' | 'countForProject' | 'claimedByOthers'>,
      project: Project,
      text: string,
    ): Promise<{ domain: CustomDomain } | { problem: RuleProblem }> {
      if (!isPaid(project)) {
        return {
          problem: {
            code: 'plan_required',
            message: `custom domains need the Pro plan or above; ${project.name} is on the ${planName(project.plan)} plan`,
          },
        };
      }
      const parsed = parseDomain(text, deps);
      if ('problem' in parsed)
        return { problem: { code: 'invalid_body', message: namedFirst(parsed.problem, text) } };
      const mixed = mixedScriptProblem(parsed.hostname);
      if (mixed) return { problem: { code: 'invalid_body', message: mixed } };
      const now = clock.now();
      const recent = (adds.get(project.id) ?? []).filter((time) => time > now - 60 * 60_000);
      if (recent.length >= ADDS_PER_HOUR) {
        return {
          problem: {
            code: 'rate_limited',
            message: `at most ${ADDS_PER_HOUR} domains can be added per project per hour; try again later`,
            retryAfterSeconds: Math.ceil((recent[0]! + 60 * 60_000 - now) / 1000),
          },
        };
      }
      if ((await repo.get(parsed.hostname, project.id)) !== undefined)
        return { problem: exists(parsed.hostname) };
      if ((await repo.countForProject(project.id)) >= domainsAllowed(project.plan))
        return { problem: overLimit(project) };
      adds.set(project.id, [...recent, now]);
      return {
        domain: {
          ...parsed,
          projectId: project.id,
          token: randomBytes(16).toString('hex'),
          state: 'pending',
          reason: null,
          primary: false,
          checks: { records: [], warnings: [] },
          createdAt: now,
          verifiedAt: null,
          checkedAt: null,
          nextCheckAt: now + MIN_RECHECK_MS,
          checkError: null,
          checkFailures: 0,
          wrongSince: null,
          // A name another project claims is settled by proof: this claim shows a TXT record too.
          proofTxt: await repo.claimedByOthers(parsed.hostname, project.id),
          failedAt: null,
        },
      };
    },

    /** "Check now" of a domain at most once per CHECK_INTERVAL_MS (per instance); else why not. */
    checkAllowed(projectId: string, hostname: string): RuleProblem | undefined {
      const now = clock.now();
      const key = `${projectId} ${hostname}`;
      const last = lastCheck.get(key);
      if (last !== undefined && now - last < CHECK_INTERVAL_MS) {
        const wait = CHECK_INTERVAL_MS - (now - last);
        return {
          code: 'rate_limited',
          message: `one check per domain every ${CHECK_INTERVAL_MS / 1000} seconds: try ${hostname} again in ${Math.ceil(wait / 1000)} s`,
          retryAfterSeconds: Math.ceil(wait / 1000),
        };
      }
      lastCheck.set(key, now);
      for (const [other, time] of lastCheck) if (now - time >= CHECK_INTERVAL_MS) lastCheck.delete(other);
      return undefined;
    },

    /** What DNS shows of the domain now (no write: asked outside any transaction), other projects unnamed. */
    async probe(domain: CustomDomain, project: Project): Promise<Verification> {
      const own = target(project);
      const found = await verifyDomain(deps.resolver!, { ...domain, target: own }, deps.caIdentity);
      return {
        ...found,
        reason: found.reason && hideOthers(found.reason, own),
        records: found.records.map((r) => ({ ...r, seen: r.seen.map((seen) => hideOthers(seen, own)) })),
      };
    },
  };
}

export type DomainRules = ReturnType<typeof createDomainRules>;
