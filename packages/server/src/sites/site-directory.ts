import { SLUG } from '../projects/project-rules.ts';
import type { Project, ProjectRepository } from '../storage/project-repository.ts';

/** A project's published docs site, as one request's host names it. */
export interface Site {
  project: Project;
}

export interface SiteDirectory {
  /** The site a host serves, read from the database for each request, or undefined. */
  resolve(host: string): Promise<Site | undefined>;
}

/** Default hosts: `<slug>.<siteDomain>` serves the project with that slug, one label only. */
export function createSiteDirectory(deps: {
  projects: ProjectRepository;
  siteDomain: string;
}): SiteDirectory {
  const suffix = `.${deps.siteDomain}`;
  return {
    async resolve(host) {
      if (!host.endsWith(suffix)) return undefined;
      const slug = host.slice(0, -suffix.length);
      if (!SLUG.test(slug)) return undefined;
      const project = await deps.projects.bySlug(slug);
      return project && { project };
    },
  };
}
