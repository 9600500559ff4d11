import type { Project } from '../projects/project-repository.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import type { Actor } from '../shared/actor.ts';
import { Refusal } from '../shared/outcome.ts';
import { memberRecords } from './repository.ts';

/**
 * The start of every transaction that changes a project's members or invitations: the project's lock,
 * then the actor's role read again under it. An owner demoted or removed by a change that committed
 * meanwhile is refused (403), so two owners removing each other make exactly one change.
 */
export async function lockedAsOwner(sql: SqlExecutor, kind: Store['kind'], actor: Actor, project: Project) {
  const members = memberRecords(sql, kind);
  await members.lockProject(project.id);
  if (actor.kind === 'account' && (await members.roleOf(actor.accountId, project.id)) !== 'owner') {
    throw new Refusal({ code: 'forbidden', message: `you are no longer an owner of ${project.slug}` });
  }
  return members;
}
