import { boundedLru } from '../../../cache/bounded-lru.ts';
import type { ChangeBatch, ChangeFeed } from '../../../changes/feed.ts';
import { ownNameKind, type ServiceNames } from '../../../http/service-names.ts';
import { isPaid, SLUG } from '../../projects/rules.ts';
import type { DomainRepository } from '../domain-repository.ts';
import type { Project, ProjectRepository } from '../../projects/project-repository.ts';

/** A project's published docs site, as one request's host names it. */
export interface Site {
  project: Project;
  /** The project's primary domain, when this host is not it: the request is answered 301 there. */
  redirectTo?: string;
}

/**
 * What a host name that is not one of the service's own (or a project's default host) serves:
 * - `site`: a project's docs site (its default host, or its verified domain on a paid plan);
 * - `claimed`: a name that is, or was, a project's custom domain, served by no site now (pending,
 *   failed, suspended below Pro, removed): it reaches nothing at all, never the service's own pages;
 * - `free`: no project ever claimed it (the API's when PETSTORE_API_HOST is unset);
 * - `absent`: a name under the site domain whose slug is no project.
 */
export type HostAnswer =
  | { kind: 'site'; site: Site }
  | { kind: 'claimed'; projectId?: string }
  | { kind: 'free' }
  | { kind: 'absent' };

/** Most host names held at once, and how long one is trusted without a change heard. */
export const HOST_CACHE_LIMITS = { entries: 10_000, ttlMs: 30_000 };

export interface HostDirectory {
  /**
   * What the host serves, as of every change committed before the call: from the cache, else one
   * indexed lookup (removal is immediate on every instance).
   */
  resolve(hostname: string): Promise<HostAnswer>;
  /** Whether the name is one of the service's own (an IP address, localhost, the API host): never looked up. */
  isServiceOwn(hostname: string): boolean;
  /** The cached answer, if any (CORS reads it synchronously; the dispatch resolves it first). */
  cached(hostname: string): HostAnswer | undefined;
  /** Lookups that failed since start (metrics), and why the last one did, until one succeeds (readiness). */
  failures(): { total: number; problem: string | undefined };
  /**
   * Why hosts cannot be looked up now, or undefined (readiness): the change feed and the last failed
   * lookup are tried again first, so an instance reports ready again once the database answers, with
   * or without traffic on a customer's name.
   */
  check(): Promise<string | undefined>;
}

export interface HostDirectoryDeps {
  projects: ProjectRepository;
  domains: DomainRepository;
  names: ServiceNames;
  feed: ChangeFeed;
  limits?: typeof HOST_CACHE_LIMITS;
}

/**
 * Which site or which part of the service a host name reaches, looked up when it is asked for and
 * cached briefly in a bounded LRU (negative answers too); the change feed drops exactly the entries of
 * each changed name and project. Nothing reads every project or every domain, at start or on a timer.
 */
export function createHostDirectory(deps: HostDirectoryDeps): HostDirectory {
  const limits = deps.limits ?? HOST_CACHE_LIMITS;
  const suffix = `.${deps.names.siteDomain}`;
  /** Host names cached per project, so a change of the project drops exactly those. */
  const byProject = new Map<string, Set<string>>();
  const projectOf = (answer: HostAnswer): string | undefined =>
    answer.kind === 'site'
      ? answer.site.project.id
      : answer.kind === 'claimed'
        ? answer.projectId
        : undefined;
  const cache = boundedLru<string, HostAnswer>(limits.entries, {
    ttl: limits.ttlMs,
    dispose(answer, hostname) {
      const projectId = projectOf(answer);
      const hosts = projectId === undefined ? undefined : byProject.get(projectId);
      hosts?.delete(hostname);
      if (hosts?.size === 0) byProject.delete(projectId!);
    },
  });
  deps.feed.subscribe((batch: ChangeBatch) => {
    if (batch === 'all') {
      cache.clear();
      return;
    }
    for (const change of batch) {
      if (change.hostname !== null) cache.delete(change.hostname);
      if (change.slug !== null) cache.delete(`${change.slug}${suffix}`);
      if (change.projectId !== null) {
        for (const hostname of [...(byProject.get(change.projectId) ?? [])]) cache.delete(hostname);
      }
    }
  });
  let total = 0;
  let problem: string | undefined;
  let failedHost: string | undefined;

  const withPrimary = async (project: Project, host: string): Promise<HostAnswer> => {
    const primary = isPaid(project) ? await deps.domains.primaryOf(project.id) : undefined;
    return {
      kind: 'site',
      site: primary && primary !== host ? { project, redirectTo: primary } : { project },
    };
  };
  const lookup = async (host: string): Promise<HostAnswer> => {
    if (host.endsWith(suffix)) {
      const slug = host.slice(0, -suffix.length);
      const project = SLUG.test(slug) ? await deps.projects.bySlug(slug) : undefined;
      return project ? withPrimary(project, host) : { kind: 'absent' };
    }
    const domain = await deps.domains.get(host);
    if (!domain) return (await deps.domains.wasRemoved(host)) ? { kind: 'claimed' } : { kind: 'free' };
    const project = domain.state === 'verified' ? await deps.projects.byId(domain.projectId) : undefined;
    if (!project || !isPaid(project)) return { kind: 'claimed', projectId: domain.projectId };
    return withPrimary(project, host);
  };
  const remember = (host: string, answer: HostAnswer) => {
    cache.set(host, answer);
    const projectId = projectOf(answer);
    if (projectId === undefined) return;
    let hosts = byProject.get(projectId);
    if (!hosts) byProject.set(projectId, (hosts = new Set()));
    hosts.add(host);
  };
  const failed = (error: unknown): never => {
    total++;
    problem = (error as Error).message;
    throw error;
  };
  const fresh = async (host: string): Promise<HostAnswer> => {
    const epoch = deps.feed.epoch();
    const answer = await lookup(host).catch((error: unknown) => {
      failedHost = host;
      return failed(error);
    });
    problem = undefined;
    failedHost = undefined;
    // A change read meanwhile may be newer than what the lookup saw: answer it, cache it next time.
    if (deps.feed.started() && deps.feed.epoch() === epoch) remember(host, answer);
    return answer;
  };
  const isServiceOwn = (hostname: string) => {
    const own = ownNameKind(hostname, deps.names);
    return own !== undefined && own !== 'site';
  };
  return {
    async resolve(hostname) {
      if (isServiceOwn(hostname)) throw new Error(`${hostname} is the service's own name`);
      // Every change committed before the request is read first (on SQLite free while nothing was
      // committed; on PostgreSQL one indexed query that every request waiting meanwhile shares), so an
      // answer is never older than the request: a removed domain is served by no instance after the
      // removal's answer, and a new one by every instance.
      await deps.feed.catchUp().catch(failed);
      return cache.get(hostname) ?? fresh(hostname);
    },
    isServiceOwn,
    cached: (hostname) => cache.get(hostname),
    failures: () => ({ total, problem }),
    async check() {
      await deps.feed.catchUp().catch(() => {});
      if (failedHost !== undefined) await fresh(failedHost).catch(() => {});
      return deps.feed.problem() ?? problem;
    },
  };
}
