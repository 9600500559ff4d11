import { EXPORT_RETRY_AFTER_SECONDS, type ExportSlots } from './export-slots.ts';
import { parseStatusFilter } from './filters.ts';
import { requestPagesOf } from './request-export.ts';
import { retainedSince } from './retention.ts';
import { type Period, type Step, usagePeriods } from './usage-series.ts';
import type { Store } from '../store.ts';
import type { RequestLogQuery, StoredRequest } from './request-log-records.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, refused } from '../shared/outcome.ts';

export const REQUEST_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** The Requests tab's filters. */
export interface RequestFilters {
  key?: string;
  status?: string;
  operation?: string;
  requestId?: string;
  /** Inclusive, epoch ms; never before the plan's retention. */
  since?: number;
  /** Exclusive, epoch ms. */
  until?: number;
}

/** The request log as the doors read it: a project's requests within its plan's retention. */
export function createRequestService(deps: {
  storage: Pick<Store, 'projects' | 'requestLog'>;
  clock: Clock;
  /**
   * The app's exports streaming at once, shared with the dashboard's (features/requests/export-slots.ts); none
   * for the command line, which exports from its own connection to the database.
   */
  exports?: ExportSlots;
  /** Resolves once this instance's waiting rows are written, so a read shows the calls just answered. */
  settle?: () => Promise<void>;
}) {
  const { storage, clock } = deps;

  const queryOf = async (
    actor: Actor,
    slug: string,
    filters: RequestFilters,
  ): Promise<Outcome<Omit<RequestLogQuery, 'limit'>>> => {
    const allowed = await authorise(storage.projects, actor, slug, 'viewer', false);
    if (!allowed.ok) return allowed;
    const { project } = allowed.value;
    const query: Omit<RequestLogQuery, 'limit'> = {
      projectId: project.id,
      since: Math.max(retainedSince(project.plan, clock.now()), filters.since ?? 0),
    };
    if (filters.status !== undefined) {
      query.status = parseStatusFilter(filters.status);
      if (query.status === undefined) {
        return refused('invalid_parameter', 'status must be 2xx, 4xx, 429, 5xx or a status code', 'status');
      }
    }
    if (filters.until !== undefined) query.until = filters.until;
    if (filters.key !== undefined) query.keyId = filters.key;
    if (filters.operation !== undefined) query.operation = filters.operation;
    if (filters.requestId !== undefined) query.requestId = filters.requestId;
    await deps.settle?.();
    return done(query);
  };

  return {
    async list(
      actor: Actor,
      slug: string,
      filters: RequestFilters & { limit?: number; cursor?: string },
    ): Promise<Outcome<Page<StoredRequest>>> {
      const before = filters.cursor === undefined ? undefined : decodeCursor(filters.cursor, true);
      if (filters.cursor !== undefined && !before) {
        return refused('invalid_cursor', 'the cursor was altered', 'cursor');
      }
      const query = await queryOf(actor, slug, filters);
      if (!query.ok) return query;
      const limit = filters.limit ?? REQUEST_PAGE.defaultLimit;
      const rows = await storage.requestLog.list({ ...query.value, before, limit: limit + 1 });
      return done(pageOf(rows, limit, (row) => ({ at: row.at, id: row.id })));
    },

    /** The Usage chart's periods: the last 24 hours or 30 days, optionally for one key. */
    async usage(actor: Actor, slug: string, step: Step, keyId?: string): Promise<Outcome<Period[]>> {
      const allowed = await authorise(storage.projects, actor, slug, 'viewer', false);
      if (!allowed.ok) return allowed;
      await deps.settle?.();
      return done(
        await usagePeriods(storage.requestLog, {
          projectId: allowed.value.project.id,
          keyId,
          step,
          now: clock.now(),
        }),
      );
    },

    /**
     * Every matching request, newest first, read a page at a time as the consumer asks for more (each
     * page after the event loop was given back: features/requests/request-export.ts), once the export has a slot
     * (EXPORTS_PER_PROJECT, EXPORTS_PER_HOLDER); `release` frees it when the export ends.
     */
    async export(
      actor: Actor,
      slug: string,
      filters: RequestFilters,
    ): Promise<Outcome<{ pages: AsyncIterable<StoredRequest[]>; release: () => void }>> {
      const found = await queryOf(actor, slug, filters);
      if (!found.ok) return found;
      const query = found.value;
      const holder =
        actor.kind === 'account' && actor.token ? `token:${actor.token.tokenId}` : actorName(actor);
      const slot = (await deps.exports?.take({ projectId: query.projectId, holder })) ?? UNCAPPED;
      if (!slot.ok) {
        const message =
          slot.cap === 'holder'
            ? 'this token already has an export streaming: try again once it has finished'
            : 'this project already has as many exports streaming as it may: try again once one has finished';
        return {
          ok: false,
          problem: { code: 'too_many_exports', message, retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS },
        };
      }
      return done({ pages: requestPagesOf(storage.requestLog, query), release: slot.release });
    },
  };
}

const UNCAPPED = { ok: true, release: () => {} } as const;

/** Who exports, for the per-holder cap, when it is not a token (the operator, the service). */
const actorName = (actor: Actor): string =>
  actor.kind === 'account' ? `account:${actor.accountId}` : actor.kind;

export type RequestService = ReturnType<typeof createRequestService>;
