import type { StoredAuditEvent } from './audit-records.ts';
import type { Storage } from '../../storage/repository.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, refused } from '../shared/outcome.ts';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** The audit trail as the doors read it: a project's events, newest first, in pages. */
export function createAuditService(deps: { storage: Pick<Storage, 'projects' | 'audit'> }) {
  const { storage } = deps;
  return {
    async list(
      actor: Actor,
      slug: string,
      query: { limit?: number; cursor?: string; since?: number; accountEvents?: boolean },
    ): Promise<Outcome<Page<StoredAuditEvent>>> {
      const allowed = await authorise(storage.projects, actor, slug, 'viewer', false);
      if (!allowed.ok) return allowed;
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (query.cursor !== undefined && (!before || !/^\d+$/.test(before.id))) {
        return refused('invalid_cursor', 'the cursor was altered', 'cursor');
      }
      const limit = query.limit ?? AUDIT_PAGE.defaultLimit;
      const rows = await storage.audit.list({
        projectId: allowed.value.project.id,
        since: query.since,
        accountEvents: query.accountEvents,
        before,
        limit: limit + 1,
      });
      return done(pageOf(rows, limit, (event) => ({ at: event.at, id: event.id })));
    },
  };
}
