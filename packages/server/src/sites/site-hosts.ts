import type { DomainRepository } from '../storage/domain-repository.ts';
import type { ProjectRepository } from '../storage/project-repository.ts';

/** How often projects and served domains are read again by default: a new site is known after this long. */
export const SITE_HOSTS_REFRESH_MS = 2_000;

export interface SiteHosts {
  /** CORS: the origins of the docs sites, whose try-it calls the API from the browser (a CorsPolicy). */
  readonly origins: { allows(origin: string): boolean };
  /** Whether a host is a verified custom domain of a paid project: such a host is routed to the sites. */
  isServedDomain(hostname: string): boolean;
  /** Reads projects and domains again now. */
  refresh(): Promise<void>;
  close(): void;
}

/**
 * What must be answered without waiting for the database — a CORS header, which routes a host takes —
 * kept in memory and read again every `refreshMs` (SITE_HOSTS_REFRESH_MS): the projects' slugs and the
 * served custom domains. Serving a site always reads the database, so a removed domain stops at once;
 * these sets only let a new one in, up to one period late (and the API's pages check the database themselves meanwhile,
 * see GuardDeps.servesCustomDomain).
 */
export function createSiteHosts(deps: {
  projects: ProjectRepository;
  domains: DomainRepository;
  siteDomain: string;
  refreshMs?: number;
}): SiteHosts {
  const suffix = `.${deps.siteDomain}`;
  let slugs = new Set<string>();
  let served = new Set<string>();
  let closed = false;
  const refresh = async () => {
    if (closed) return;
    try {
      const [projects, servedNow] = await Promise.all([deps.projects.list(), deps.domains.listServed()]);
      slugs = new Set(projects.map((project) => project.slug));
      served = new Set(servedNow);
    } catch {
      // The database is away: keep the last sets; /readyz and the API report the outage.
    }
  };
  const timer = setInterval(refresh, deps.refreshMs ?? SITE_HOSTS_REFRESH_MS).unref();
  void refresh();
  return {
    origins: {
      allows(origin) {
        let url: URL;
        try {
          url = new URL(origin);
        } catch {
          return false;
        }
        if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
        const host = url.hostname;
        return (host.endsWith(suffix) && slugs.has(host.slice(0, -suffix.length))) || served.has(host);
      },
    },
    isServedDomain: (hostname) => served.has(hostname),
    refresh,
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
