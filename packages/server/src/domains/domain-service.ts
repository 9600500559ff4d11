import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import type { ErrorCode } from '../errors.ts';
import { PAID_PLANS } from '../projects/project-rules.ts';
import type { CustomDomain } from '../storage/domain-repository.ts';
import type { Project } from '../storage/project-repository.ts';
import type { Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import type { DnsResolver } from './dns.ts';
import { parseDomain } from './hostname.ts';
import { mixedScriptProblem } from './mixed-script.ts';
import type { ExpectedRecord, RecordCheck } from '../storage/domain-checks.ts';
import { expectedRecords } from './records.ts';
import { verifyDomain } from './verify.ts';

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
const CLAIM_LEASE_MS = 5 * 60_000;

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
  checkedAt: number | null;
  verifiedAt: number | null;
  /** "Could not check: <why>, will retry" when the last check got no DNS answer; else null. */
  checkError: string | null;
}

/** Why an add or a check is refused, by its code in the error catalogue. */
export type DomainRefusal = {
  kind: 'refused';
  code: Extract<
    ErrorCode,
    'plan_required' | 'invalid_parameter' | 'domain_exists' | 'domain_limit_reached' | 'rate_limited'
  >;
  message: string;
  /** With rate_limited: when to try again. */
  retryAfterMs?: number;
};

export type AddOutcome = { kind: 'added'; domain: DomainView } | DomainRefusal;
export type CheckOutcome = { kind: 'checked'; domain: DomainView } | DomainRefusal;

export interface DomainServiceDeps {
  storage: Pick<Storage, 'domains' | 'projects'>;
  /** Where checks ask; without one (a command run before any service recorded its own), add does not check. */
  resolver?: DnsResolver;
  clock: Clock;
  siteDomain: string;
  apiHost?: string;
  /** The CAA identity of the certificate authority used for TLS, e.g. `letsencrypt.org`. */
  caIdentity: string;
  /** Awaited after every change this service makes: this instance routes by the change from its answer on. */
  changed?: () => Promise<void>;
  /**
   * Awaited when a background check (checkDue) changes a domain's state: the audit trail records what
   * no one did by hand. Checks made on demand are recorded by whoever asked (dashboard, command line).
   */
  stateChanged?: (domain: CustomDomain, before: CustomDomain['state']) => Promise<void>;
  /** Domains an Enterprise project may have (PETSTORE_ENTERPRISE_DOMAINS); default 200. */
  enterpriseDomains?: number;
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
const at = (time: number) => new Date(time).toISOString().slice(0, 16).replace('T', ' ');
const planName = (plan: string) => plan[0]!.toUpperCase() + plan.slice(1);
export const isPaid = (project: Pick<Project, 'plan'>): boolean => PAID_PLANS.includes(project.plan);

export function createDomainService(deps: DomainServiceDeps) {
  const { storage, clock } = deps;
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

  const view = (domain: CustomDomain, project: Project): DomainView => {
    const expected = expectedRecords(domain, target(project));
    const seen = new Map(domain.checks.records.map((record) => [`${record.type} ${record.name}`, record]));
    const suspended = !isPaid(project);
    return {
      hostname: domain.hostname,
      state: suspended ? 'suspended' : domain.state,
      reason: suspended
        ? `The project is on the ${planName(project.plan)} plan: custom domains need Pro or above. The domain is not served until the plan is upgraded, then it comes back by itself`
        : domain.reason && sentence(domain.reason),
      primary: domain.primary,
      apex: domain.apex,
      records: expected.map((record) => {
        const check: RecordCheck | undefined = seen.get(`${record.type} ${record.name}`);
        return { ...record, ok: check?.ok ?? false, seen: check?.seen ?? [] };
      }),
      warnings: domain.checks.warnings,
      checkedAt: domain.checkedAt,
      verifiedAt: domain.verifiedAt,
      checkError: domain.checkError && `Could not check: ${domain.checkError}, will retry`,
    };
  };

  /**
   * Checks a domain now and stores what was seen, with when to look again. Only a DNS answer changes
   * the state; a verified domain is unserved only when its records were seen wrong for UNSERVE_AFTER_MS.
   */
  const check = async (domain: CustomDomain, project: Project): Promise<CustomDomain> => {
    const now = clock.now();
    const own = target(project);
    const found = await verifyDomain(deps.resolver!, { ...domain, target: own }, deps.caIdentity);
    const result = {
      ...found,
      reason: found.reason && hideOthers(found.reason, own),
      records: found.records.map((r) => ({ ...r, seen: r.seen.map((seen) => hideOthers(seen, own)) })),
    };
    if (result.state === 'unanswered') {
      const failures = domain.checkFailures + 1;
      const unanswered = {
        checkError: result.reason!,
        checkFailures: failures,
        nextCheckAt: now + retryAfterMs(failures),
      };
      await storage.domains.recordUnanswered(domain.hostname, unanswered, domain.projectId);
      return (await storage.domains.get(domain.hostname, domain.projectId)) ?? { ...domain, ...unanswered };
    }
    const checks = { records: result.records, warnings: result.warnings };
    let state: CustomDomain['state'] = result.state;
    let reason = result.reason;
    let wrongSince: number | null = null;
    let nextCheckAt: number;
    if (state === 'verified') {
      nextCheckAt = now + VERIFIED_RECHECK_MS;
    } else if (domain.state === 'verified') {
      wrongSince = domain.wrongSince ?? now;
      if (now - wrongSince >= UNSERVE_AFTER_MS) {
        // Wrong in every answered check for an hour: not served any more (no dangling record), but watched.
        state = 'failed';
        reason = `the records no longer point here (seen wrong since ${at(wrongSince)} UTC), so the domain is not served: ${reason}`;
        nextCheckAt = now + MAX_RECHECK_MS;
      } else {
        state = 'verified';
        reason = `the records were seen wrong at ${at(wrongSince)} UTC: ${reason}. Still served; if they are still wrong at ${at(wrongSince + UNSERVE_AFTER_MS)} UTC the domain stops being served`;
        nextCheckAt = now + Math.min(WRONG_RECHECK_MS, wrongSince + UNSERVE_AFTER_MS - now);
      }
    } else if (domain.verifiedAt !== null) {
      state = 'failed';
      reason = `the records no longer point here, so the domain is not served: ${reason}`;
      nextCheckAt = now + MAX_RECHECK_MS;
    } else if (now - domain.createdAt >= VERIFY_WINDOW_MS) {
      state = 'failed';
      reason = `not verified within 48 hours of adding it (${reason}); fix the records, then use "Check now"`;
      nextCheckAt = Number.MAX_SAFE_INTEGER;
    } else {
      nextCheckAt =
        now + Math.min(MAX_RECHECK_MS, Math.max(MIN_RECHECK_MS, Math.floor((now - domain.createdAt) / 8)));
    }
    const stored = {
      state,
      reason,
      checks,
      checkedAt: now,
      nextCheckAt,
      verifiedAt: state === 'verified' ? now : null,
      wrongSince,
      endedReason: `another project proved control of ${domain.hostname} at ${at(now)} UTC (its TXT ownership record and CNAME were seen), so this project no longer serves it. To take it back, create the records below, then use "Check now"`,
    };
    await storage.domains.recordCheck(domain.hostname, stored, domain.projectId);
    await deps.changed?.();
    return (
      (await storage.domains.get(domain.hostname, domain.projectId)) ?? {
        ...domain,
        ...stored,
        checkError: null,
        checkFailures: 0,
      }
    );
  };

  /** The view, with `primary` meaning "the address the others redirect to now". */
  const current = async (domain: CustomDomain, project: Project): Promise<DomainView> => ({
    ...view(domain, project),
    primary: domain.hostname === (await storage.domains.primaryOf(project.id)),
  });

  return {
    target,

    async add(project: Project, text: string): Promise<AddOutcome> {
      if (!isPaid(project)) {
        return {
          kind: 'refused',
          code: 'plan_required',
          message: `custom domains need the Pro plan or above; ${project.name} is on the ${planName(project.plan)} plan`,
        };
      }
      const parsed = parseDomain(text, deps);
      if ('problem' in parsed)
        return { kind: 'refused', code: 'invalid_parameter', message: namedFirst(parsed.problem, text) };
      const mixed = mixedScriptProblem(parsed.hostname);
      if (mixed) return { kind: 'refused', code: 'invalid_parameter', message: mixed };
      const now = clock.now();
      const recent = (adds.get(project.id) ?? []).filter((time) => time > now - 60 * 60_000);
      if (recent.length >= ADDS_PER_HOUR) {
        return {
          kind: 'refused',
          code: 'rate_limited',
          message: `at most ${ADDS_PER_HOUR} domains can be added per project per hour; try again later`,
          retryAfterMs: recent[0]! + 60 * 60_000 - now,
        };
      }
      if ((await storage.domains.get(parsed.hostname, project.id)) !== undefined)
        return {
          kind: 'refused',
          code: 'domain_exists',
          message: `this project already has ${parsed.hostname}`,
        };
      const allowed = domainsAllowed(project.plan);
      if ((await storage.domains.countForProject(project.id)) >= allowed) {
        return {
          kind: 'refused',
          code: 'domain_limit_reached',
          message: `the ${planName(project.plan)} plan allows ${allowed} custom domains per project; remove one first`,
        };
      }
      adds.set(project.id, [...recent, now]);
      const added = await storage.domains.add({
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
        proofTxt: await storage.domains.claimedByOthers(parsed.hostname, project.id),
        failedAt: null,
      });
      if (!added)
        return {
          kind: 'refused',
          code: 'domain_exists',
          message: `this project already has ${parsed.hostname}`,
        };
      await deps.changed?.();
      const checked = deps.resolver ? await check(added, project) : added;
      return { kind: 'added', domain: await current(checked, project) };
    },

    /** The project's domains; `primary` marks the one the others redirect to now (see primaryOf). */
    async list(project: Project): Promise<DomainView[]> {
      const [domains, primary] = await Promise.all([
        storage.domains.listForProject(project.id),
        storage.domains.primaryOf(project.id),
      ]);
      return domains.map((domain) => ({ ...view(domain, project), primary: domain.hostname === primary }));
    },

    /**
     * "Check now": the domain of this project, checked at once (at most once per CHECK_INTERVAL_MS);
     * undefined when it is not the project's.
     */
    async checkNow(project: Project, hostname: string): Promise<CheckOutcome | undefined> {
      const domain = await storage.domains.get(hostname, project.id);
      if (!domain) return undefined;
      const now = clock.now();
      const key = `${project.id} ${hostname}`;
      const last = lastCheck.get(key);
      if (last !== undefined && now - last < CHECK_INTERVAL_MS) {
        const wait = CHECK_INTERVAL_MS - (now - last);
        return {
          kind: 'refused',
          code: 'rate_limited',
          message: `one check per domain every ${CHECK_INTERVAL_MS / 1000} seconds: try ${hostname} again in ${Math.ceil(wait / 1000)} s`,
          retryAfterMs: wait,
        };
      }
      lastCheck.set(key, now);
      for (const [other, at] of lastCheck) if (now - at >= CHECK_INTERVAL_MS) lastCheck.delete(other);
      return { kind: 'checked', domain: await current(await check(domain, project), project) };
    },

    /** Checks the domains that are due, each claimed first so that instances never check one twice. */
    async checkDue(limit = 20): Promise<number> {
      const now = clock.now();
      if ((await storage.domains.releaseFailed(now - RELEASE_FAILED_AFTER_MS, now)) > 0)
        await deps.changed?.();
      const due = await storage.domains.claimDue(now, now + CLAIM_LEASE_MS, limit);
      for (const domain of due) {
        const project = await storage.projects.byId(domain.projectId);
        if (!project) continue;
        const checked = await check(domain, project);
        if (checked.state !== domain.state) await deps.stateChanged?.(checked, domain.state);
      }
      return due.length;
    },

    /** Records, for `petstore domains verify`, the DNS servers this service checks with. */
    recordResolvers: () => storage.domains.recordResolvers(deps.resolver?.getServers() ?? [], clock.now()),

    async setPrimary(project: Project, hostname: string): Promise<boolean> {
      const done = await storage.domains.setPrimary(project.id, hostname);
      if (done) await deps.changed?.();
      return done;
    },
    async remove(project: Project, hostname: string): Promise<boolean> {
      const done = await storage.domains.remove(project.id, hostname, clock.now());
      if (done) await deps.changed?.();
      return done;
    },
  };
}

export type DomainService = ReturnType<typeof createDomainService>;
