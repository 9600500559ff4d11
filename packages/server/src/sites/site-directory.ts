import { isPaid } from '../domains/domain-service.ts';
import { SLUG } from '../projects/project-rules.ts';
import type { DomainRepository } from '../storage/domain-repository.ts';
import type { Project, ProjectRepository } from '../storage/project-repository.ts';

/** A project's published docs site, as one request's host names it. */
export interface Site {
  project: Project;
  /** The project's primary domain, when this host is not it: the request is answered 301 there. */
  redirectTo?: string;
}

export interface SiteDirectory {
  /** The site a host serves, read from the database for each request, or undefined. */
  resolve(host: string): Promise<Site | undefined>;
}

/**
 * Which site a host serves, from the database on every request (so a removed or suspended domain stops
 * at once on every instance): a project's default host `<slug>.<siteDomain>`, or a custom domain that
 * is verified and whose project is on a paid plan. When the project has a verified primary domain,
 * every other host of it (the default host included) redirects there: one address, no duplicate pages.
 */
export function createSiteDirectory(deps: {
  projects: ProjectRepository;
  domains: DomainRepository;
  siteDomain: string;
}): SiteDirectory {
  const suffix = `.${deps.siteDomain}`;
  const withPrimary = async (project: Project, host: string): Promise<Site> => {
    const primary = isPaid(project) ? await deps.domains.primaryOf(project.id) : undefined;
    return primary && primary !== host ? { project, redirectTo: primary } : { project };
  };
  return {
    async resolve(host) {
      if (host.endsWith(suffix)) {
        const slug = host.slice(0, -suffix.length);
        const project = SLUG.test(slug) ? await deps.projects.bySlug(slug) : undefined;
        return project && withPrimary(project, host);
      }
      const domain = await deps.domains.get(host);
      if (!domain || domain.state !== 'verified') return undefined;
      const project = await deps.projects.byId(domain.projectId);
      if (!project || !isPaid(project)) return undefined;
      return withPrimary(project, host);
    },
  };
}
