import type { AuditAction, StoredAuditEvent } from './audit-records.ts';
import type { Store } from '../store.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, refused } from '../shared/outcome.ts';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** An event as an actor may read it: the client address only for the project's owners. */
export type VisibleAuditEvent = Omit<StoredAuditEvent, 'address'> & { address?: string | null };

/**
 * The audit trail as the doors read it: a project's events, newest first, in pages. Addresses are
 * for owners (and the operator), as on the dashboard's Activity tab: other roles get events without.
 */
export function createAuditService(deps: { storage: Pick<Store, 'projects' | 'audit'> }) {
  const { storage } = deps;
  return {
    async list(
      actor: Actor,
      slug: string,
      query: {
        limit?: number;
        cursor?: string;
        since?: number;
        until?: number;
        actor?: string;
        action?: AuditAction;
        accountEvents?: boolean;
      },
    ): Promise<Outcome<Page<VisibleAuditEvent>>> {
      const allowed = await authorise(storage.projects, actor, slug, 'viewer', false);
      if (!allowed.ok) return allowed;
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor, true);
      if (query.cursor !== undefined && !before) {
        return refused('invalid_cursor', 'the cursor was altered', 'cursor');
      }
      const limit = query.limit ?? AUDIT_PAGE.defaultLimit;
      const rows = await storage.audit.list({
        projectId: allowed.value.project.id,
        since: query.since,
        until: query.until,
        actor: query.actor,
        action: query.action,
        accountEvents: query.accountEvents,
        before,
        limit: limit + 1,
      });
      const page = pageOf(rows, limit, (event) => ({ at: event.at, id: event.id }));
      if (allowed.value.role === 'owner') return done(page);
      return done({ ...page, data: page.data.map(({ address: _address, ...event }) => event) });
    },
  };
}
