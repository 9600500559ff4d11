import { limitsFor } from '../../ratelimit/plans.ts';
import { iso } from '../shared/iso.ts';
import type { VisibleProject } from './service.ts';

/** A project as the management API (and `petstore projects list --json`) shows it. */
export function projectJson({ project, role, twoFactorRequired }: VisibleProject) {
  return {
    slug: project.slug,
    name: project.name,
    plan: project.plan,
    role,
    limits: limitsFor(project),
    createdAt: iso(project.createdAt),
    ...(twoFactorRequired === undefined ? {} : { twoFactorRequired }),
  };
}
