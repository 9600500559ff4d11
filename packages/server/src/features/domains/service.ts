import {
  CLAIM_LEASE_MS,
  createDomainRules,
  type DomainRulesDeps,
  type DomainView,
  RELEASE_FAILED_AFTER_MS,
} from './rules.ts';
import { checkRecord, settleCheck, storeCheck } from './settle-check.ts';
import { createDomainRepository, type CustomDomain, domainPages } from './domain-repository.ts';
import type { Project } from '../projects/project-repository.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { type Actor, authorise, SERVICE } from '../shared/actor.ts';
import { createAudited } from '../shared/audited.ts';
import type { Page } from '../shared/cursor.ts';
import { done, type Outcome, type Problem, Refusal, refused } from '../shared/outcome.ts';
import { decodeDomainCursor, encodeDomainCursor } from './cursor.ts';

export const DOMAIN_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

export interface DomainsServiceDeps extends DomainRulesDeps {
  storage: Store;
  /** Awaited after every change: this instance routes by it from its answer on (the change feed). */
  changed?: () => Promise<void>;
}

const notFound = (hostname: string, project: Project): Problem => ({
  code: 'not_found',
  message: `${hostname} is not a domain of ${project.slug}`,
  param: 'hostname',
});

/**
 * Custom domains: every door (dashboard, management API, command line, the background checks) adds,
 * lists, checks, makes primary and removes domains here, and nowhere else. Each operation checks the
 * actor's role once (authorise: owners change, members read), asks DNS outside any transaction, and
 * writes the change with the audit record saying what happened in one transaction.
 */
export function createDomainsService(deps: DomainsServiceDeps) {
  const { storage, clock } = deps;
  const rules = createDomainRules(deps);
  const audited = createAudited(storage, clock);
  /**
   * The domain tables inside a transaction; on PostgreSQL the project's row is locked first, so one
   * project's domain changes run one after another (its plan's count and its one primary stay exact).
   */
  const locked = async (sql: SqlExecutor, projectId: string, hostname: string) => {
    if (storage.kind === 'postgres') {
      await sql.all('SELECT 1 AS one FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
      // Then the name, whichever project holds or claims it: a takeover and the holder's own check
      // never interleave, each reads the name's rows as the other left them.
      await sql.all('SELECT pg_advisory_xact_lock(hashtext($1)) AS locked', [`custom_domains ${hostname}`]);
    }
    return createDomainRepository(sql, () => {});
  };
  /** A check's answer met a domain another check changed first (a takeover, another instance). */
  const changedMeanwhile = (hostname: string): Refusal =>
    new Refusal({
      code: 'conflict',
      message: `${hostname} changed while it was being checked (another check finished first): check it again`,
      param: 'hostname',
    });
  const changed = async () => deps.changed?.();

  const shown = async (project: Project, domain: CustomDomain): Promise<DomainView> => {
    const [now, primary] = await Promise.all([
      storage.domains.get(domain.hostname, project.id),
      storage.domains.primaryOf(project.id),
    ]);
    return rules.view(now ?? domain, project, primary);
  };

  /** The project, when the actor may act on its domains, with the domain named (when one is). */
  const reach = async (
    actor: Actor,
    slug: string,
    write: boolean,
    hostname?: string,
  ): Promise<Outcome<{ project: Project; domain?: CustomDomain }>> => {
    const allowed = await authorise(storage.projects, actor, slug, write ? 'owner' : 'viewer', write);
    if (!allowed.ok) return allowed;
    const { project } = allowed.value;
    if (hostname === undefined) return done({ project });
    // As stored: lower case, no trailing dot.
    const domain = await storage.domains.get(hostname.toLowerCase().replace(/\.$/, ''), project.id);
    return domain ? done({ project, domain }) : { ok: false, problem: notFound(hostname, project) };
  };

  return {
    target: rules.target,

    /** A page of the project's domains in the order they were added. */
    async list(
      actor: Actor,
      slug: string,
      query: { limit?: number; cursor?: string },
    ): Promise<Outcome<Page<DomainView>>> {
      const reached = await reach(actor, slug, false);
      if (!reached.ok) return reached;
      const { project } = reached.value;
      const after = query.cursor === undefined ? undefined : decodeDomainCursor(query.cursor);
      if (query.cursor !== undefined && !after)
        return refused('invalid_cursor', 'the cursor was altered', 'cursor');
      const limit = query.limit ?? DOMAIN_PAGE.defaultLimit;
      const [rows, primary] = await Promise.all([
        domainPages(storage.sql).page(project.id, after, limit + 1),
        storage.domains.primaryOf(project.id),
      ]);
      const data = rows.slice(0, limit);
      const last = data.at(-1);
      const hasMore = rows.length > limit;
      return done({
        data: data.map((domain) => rules.view(domain, project, primary)),
        hasMore,
        next: hasMore && last ? encodeDomainCursor({ at: last.createdAt, hostname: last.hostname }) : null,
      });
    },

    /** Every domain of the project (as many as its plan allows), for its dashboard page. */
    async all(actor: Actor, slug: string): Promise<Outcome<DomainView[]>> {
      const reached = await reach(actor, slug, false);
      if (!reached.ok) return reached;
      const { project } = reached.value;
      const [domains, primary] = await Promise.all([
        storage.domains.listForProject(project.id),
        storage.domains.primaryOf(project.id),
      ]);
      return done(domains.map((domain) => rules.view(domain, project, primary)));
    },

    /**
     * Adds the domain and checks it at once (DNS first, then the domain with what was seen and its
     * audit record in one transaction). Of two adds of one name at once, one is added, the other is
     * domain_exists.
     */
    async add(actor: Actor, slug: string, hostname: string): Promise<Outcome<DomainView>> {
      const reached = await reach(actor, slug, true);
      if (!reached.ok) return reached;
      const { project } = reached.value;
      const made = await rules.newDomain(storage.domains, project, hostname);
      if ('problem' in made) return { ok: false, problem: { ...made.problem, param: 'hostname' } };
      const fresh = made.domain;
      const found = await rules.probe(fresh, project);
      const outcome = await audited(actor, project.id, async (sql) => {
        const domains = await locked(sql, project.id, fresh.hostname);
        if (!(await domains.add(fresh)))
          throw new Refusal({ ...rules.exists(fresh.hostname), param: 'hostname' });
        if ((await domains.countForProject(project.id)) > rules.allowed(project.plan))
          throw new Refusal({ ...rules.overLimit(project), param: 'hostname' });
        await storeCheck(domains, fresh, settleCheck(fresh, found, clock.now()));
        return { value: fresh, action: 'domain_added', target: fresh.hostname };
      });
      if (!outcome.ok) return outcome;
      await changed();
      return done(await shown(project, fresh));
    },

    /** "Check now": DNS asked at once (at most once per CHECK_INTERVAL_MS), the trail saying what it saw. */
    async check(actor: Actor, slug: string, hostname: string): Promise<Outcome<DomainView>> {
      const reached = await reach(actor, slug, true, hostname);
      if (!reached.ok) return reached;
      const { project, domain } = reached.value as { project: Project; domain: CustomDomain };
      const wait = rules.checkAllowed(project.id, domain.hostname);
      if (wait) return { ok: false, problem: wait };
      const settled = settleCheck(domain, await rules.probe(domain, project), clock.now());
      const outcome = await audited(actor, project.id, async (sql) => {
        if (!(await storeCheck(await locked(sql, project.id, domain.hostname), domain, settled)))
          throw changedMeanwhile(domain.hostname);
        return { value: domain, ...checkRecord(domain, settled) };
      });
      if (!outcome.ok) return outcome;
      if ('answered' in settled) await changed();
      return done(await shown(project, domain));
    },

    /** Makes a verified domain the primary: every other address of the project redirects to it. */
    async makePrimary(actor: Actor, slug: string, hostname: string): Promise<Outcome<DomainView>> {
      const reached = await reach(actor, slug, true, hostname);
      if (!reached.ok) return reached;
      const { project, domain } = reached.value as { project: Project; domain: CustomDomain };
      const outcome = await audited(actor, project.id, async (sql) => {
        if (
          !(await (await locked(sql, project.id, domain.hostname)).setPrimary(project.id, domain.hostname))
        ) {
          throw new Refusal({
            code: 'conflict',
            message: `${domain.hostname} must be verified before it can be the primary domain`,
            param: 'hostname',
          });
        }
        return { value: domain, action: 'domain_primary', target: domain.hostname };
      });
      if (!outcome.ok) return outcome;
      await changed();
      return done(await shown(project, domain));
    },

    /** Stops serving the domain at once, on every instance (the change feed); answers it as it was. */
    async remove(actor: Actor, slug: string, hostname: string): Promise<Outcome<DomainView>> {
      const reached = await reach(actor, slug, true, hostname);
      if (!reached.ok) return reached;
      const { project, domain } = reached.value as { project: Project; domain: CustomDomain };
      const before = await shown(project, domain);
      const outcome = await audited(actor, project.id, async (sql) => {
        if (
          !(await (
            await locked(sql, project.id, domain.hostname)
          ).remove(project.id, domain.hostname, clock.now()))
        )
          throw new Refusal(notFound(hostname, project));
        return { value: before, action: 'domain_removed', target: domain.hostname };
      });
      if (outcome.ok) await changed();
      return outcome;
    },

    /**
     * The background checks: releases failed claims past their grace, then checks the domains that are
     * due, each claimed first so that instances never check one twice. A check that changes a domain's
     * state is recorded as the actor `service`.
     */
    async checkDue(limit = 20): Promise<number> {
      const now = clock.now();
      if ((await storage.domains.releaseFailed(now - RELEASE_FAILED_AFTER_MS, now)) > 0) await changed();
      const due = await storage.domains.claimDue(now, now + CLAIM_LEASE_MS, limit);
      for (const domain of due) {
        const project = await storage.projects.byId(domain.projectId);
        if (!project) continue;
        const settled = settleCheck(domain, await rules.probe(domain, project), clock.now());
        const store = async (sql: SqlExecutor) => {
          if (!(await storeCheck(await locked(sql, project.id, domain.hostname), domain, settled)))
            throw changedMeanwhile(domain.hostname);
        };
        if ('answered' in settled && settled.answered.state !== domain.state) {
          await audited(SERVICE, project.id, async (sql) => {
            await store(sql);
            return { value: undefined, ...checkRecord(domain, settled) };
          });
        } else
          await storage.transaction(store).catch((error: unknown) => {
            if (!(error instanceof Refusal)) throw error;
          });
        if ('answered' in settled) await changed();
      }
      return due.length;
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
