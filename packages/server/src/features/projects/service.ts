import type { Member, Role } from '../../storage/member-records.ts';
import type { Project } from '../../storage/project-repository.ts';
import type { Storage } from '../../storage/repository.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { done, type Outcome } from '../shared/outcome.ts';

/** A project as an actor sees it: with the role it holds there. */
export interface VisibleProject {
  project: Project;
  role: Role;
}

/** Projects as the doors read them: the ones an actor may see, one at a time or all. */
export function createProjectService(deps: { storage: Pick<Storage, 'projects'> }) {
  const { projects } = deps.storage;
  return {
    /** The account's projects (through a token: those of the token), by name; every project for the operator. */
    async list(actor: Actor): Promise<VisibleProject[]> {
      if (actor.kind !== 'account') {
        return (await projects.list()).map((project) => ({ project, role: 'owner' as const }));
      }
      const mine = await projects.listForAccount(actor.accountId);
      const visible = actor.token ? mine.filter((project) => actor.token!.projectIds.has(project.id)) : mine;
      return Promise.all(
        visible.map(async (project) => ({
          project,
          role: (await projects.roleOf(actor.accountId, project.id)) ?? 'viewer',
        })),
      );
    },
    /** The project's members, for anyone who may read it. */
    async members(actor: Actor, slug: string): Promise<Outcome<Member[]>> {
      const allowed = await authorise(projects, actor, slug, 'viewer', false);
      return allowed.ok ? done(await projects.members(allowed.value.project.id)) : allowed;
    },
    async get(actor: Actor, slug: string): Promise<Outcome<VisibleProject>> {
      const allowed = await authorise(projects, actor, slug, 'viewer', false);
      return allowed.ok ? done(allowed.value) : allowed;
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
