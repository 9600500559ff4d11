import { parseStatusFilter } from '../../insights/filters.ts';
import { retainedSince } from '../../insights/retention.ts';
import { type Period, type Step, usagePeriods } from '../../insights/usage-series.ts';
import type { Storage } from '../../storage/repository.ts';
import type { RequestLogQuery, StoredRequest } from '../../storage/request-log-records.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { decodeCursor, type Page, pageOf } from '../shared/cursor.ts';
import { done, type Outcome, refused } from '../shared/outcome.ts';

export const REQUEST_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
/** An export reads the log in pages of this many rows, written out as they come. */
const EXPORT_BATCH = 1_000;

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
  storage: Pick<Storage, 'projects' | 'requestLog'>;
  clock: Clock;
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

    /** Every matching request, newest first, read a page at a time as the consumer asks for more. */
    async export(
      actor: Actor,
      slug: string,
      filters: RequestFilters,
    ): Promise<Outcome<AsyncIterable<StoredRequest>>> {
      const found = await queryOf(actor, slug, filters);
      if (!found.ok) return found;
      const query = found.value;
      async function* rows(): AsyncIterable<StoredRequest> {
        let before: { at: number; id: string } | undefined;
        for (;;) {
          const page = await storage.requestLog.list({ ...query, before, limit: EXPORT_BATCH });
          yield* page;
          if (page.length < EXPORT_BATCH) return;
          const last = page.at(-1)!;
          before = { at: last.at, id: last.id };
        }
      }
      return done(rows());
    },
  };
}

export type RequestService = ReturnType<typeof createRequestService>;
