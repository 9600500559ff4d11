import type { CorsPolicy } from '../http/cors.ts';
import type { ProjectRepository } from '../storage/project-repository.ts';

/** How often the set of projects is read again; a new project's site may call the API after this long. */
export const SITE_ORIGINS_REFRESH_MS = 2_000;

export interface SiteOrigins extends CorsPolicy {
  /** Reads the projects again now (after this process created one, and on a timer). */
  refresh(): Promise<void>;
  close(): void;
}

/**
 * The origins of the projects' docs sites, whose try-it calls the API from the browser: exactly
 * `http(s)://<slug>.<site domain>[:port]` for a project that exists. Kept in memory (a CORS answer
 * cannot wait for the database) and read again every SITE_ORIGINS_REFRESH_MS.
 */
export function createSiteOrigins(deps: { projects: ProjectRepository; siteDomain: string }): SiteOrigins {
  const suffix = `.${deps.siteDomain}`;
  let slugs = new Set<string>();
  let closed = false;
  const refresh = async () => {
    if (closed) return;
    try {
      slugs = new Set((await deps.projects.list()).map((project) => project.slug));
    } catch {
      // The database is away: keep the last set; /readyz and the API report the outage.
    }
  };
  const timer = setInterval(refresh, SITE_ORIGINS_REFRESH_MS).unref();
  void refresh();
  return {
    allows(origin) {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
      const host = url.hostname;
      return host.endsWith(suffix) && slugs.has(host.slice(0, -suffix.length));
    },
    refresh,
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
