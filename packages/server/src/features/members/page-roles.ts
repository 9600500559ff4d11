import type { FastifyRequest } from 'fastify';
import { signedInOf } from '../identity/session-cookie.ts';
import { ApiError } from '../../errors.ts';
import type { Role } from './member-records.ts';
import type { Project, ProjectRepository } from '../projects/project-repository.ts';
import { allows, ROLE_NAMES } from '../shared/roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** On a project route: the project in the path and the signed-in account's role in it (set by the guard). */
    member?: { project: Project; role: Role };
  }
}

/** The project and role of a project route: the guard has checked the membership before any handler runs. */
export function memberOf(request: FastifyRequest): { project: Project; role: Role } {
  if (!request.member) throw new Error('a project route ran without the guard’s role check');
  return request.member;
}

/**
 * The guard's step for project routes, after the session: the project named by the route's `:slug`
 * parameter, if the account is a member (else 404, exactly like a project that does not exist), and
 * the role the route declares it needs (else 403).
 */
export async function requireRole(
  request: FastifyRequest,
  projects: Pick<ProjectRepository, 'bySlug' | 'roleOf'>,
  needed: Role,
): Promise<void> {
  const { slug } = request.params as { slug?: string };
  const project = slug === undefined ? undefined : await projects.bySlug(slug);
  const role = project && (await projects.roleOf(signedInOf(request).account.id, project.id));
  if (!project || !role) throw new ApiError('not_found', `you have no project ${slug}`);
  if (!allows(role, needed)) {
    throw new ApiError(
      'forbidden',
      `you are ${ROLE_NAMES[role]} of ${project.slug}: this needs ${needed === 'owner' ? 'an owner' : 'a developer or an owner'}`,
    );
  }
  request.member = { project, role };
}
