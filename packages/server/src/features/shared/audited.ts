import { type AuditAction, createAuditRecords } from '../audit/audit-records.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, auditActor } from './actor.ts';
import { done, type Outcome, Refusal } from './outcome.ts';

/** What a change made inside `audited` returns: its value and the audit record that names it. */
export interface AuditedChange<T> {
  value: T;
  /** Null: nothing was changed, so nothing is recorded. */
  action: AuditAction | null;
  target: string | null;
  /** Further records of the same change (invitations revoked with their maker's removal). */
  also?: AuditNote[];
}

/** One more record of a change. */
export interface AuditNote {
  action: AuditAction;
  target: string | null;
}

/**
 * The one way a service writes a change: `work` and its audit record in one transaction, so the trail
 * records exactly what was stored. A Refusal thrown by `work` undoes it and becomes the outcome.
 */
export function createAudited(storage: Pick<Store, 'transaction'>, clock: Clock) {
  return async <T>(
    actor: Actor,
    projectId: string | null,
    work: (sql: SqlExecutor) => Promise<AuditedChange<T>>,
  ): Promise<Outcome<T>> => {
    try {
      return done(
        await storage.transaction(async (sql) => {
          const { value, action, target, also = [] } = await work(sql);
          const notes = action === null ? also : [{ action, target }, ...also];
          for (const note of notes) {
            await createAuditRecords(sql).record({
              at: clock.now(),
              projectId,
              ...auditActor(actor),
              ...note,
            });
          }
          return value;
        }),
      );
    } catch (error) {
      if (error instanceof Refusal) return { ok: false, problem: error.problem };
      throw error;
    }
  };
}
