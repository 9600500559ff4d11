import type { LoggedRequest } from './request-log-records.ts';

/** What happened to a row offered to the buffer. */
export type Offered =
  /** Queued as a row of its own. */
  | { kind: 'added'; evicted?: LoggedRequest }
  /** Counted in the row of its project's refusals of the same second, status and code, already waiting. */
  | { kind: 'counted' }
  /** Not kept: the buffer is full and its project holds at least as many rows as any other. */
  | { kind: 'dropped' };

export interface RequestLogBuffer {
  /** Rows waiting. */
  readonly size: number;
  /**
   * Queues a row. A refusal (REFUSED_STATUSES) of a project's key, when a refusal of the same project,
   * second, status and code still waits, is counted in that row instead, whichever key it was. When the buffer is full, the newest row of the project holding the most rows
   * makes room (`evicted`), unless the row's own project holds as many; then the row is dropped.
   */
  offer(row: LoggedRequest): Offered;
  /**
   * Takes up to `count` rows, oldest first. A row counting refusals stays (moved behind the others)
   * until its second has passed, on the caller's clock or by `now()` a second after it was made,
   * unless `all`: so a flood of refusals is one row a second, not one a write.
   */
  take(count: number, all?: boolean): LoggedRequest[];
}

/**
 * Refusals: answers that cost the project nothing (a 429 is answered before any work, and counts
 * against no quota), so a project could otherwise grow its log for free with as many keys as it makes.
 */
export const REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

/**
 * The second of one project's refusals with one status and code, all its keys together: the row that
 * counts them while it waits. Ten keys refused log no more rows than one.
 */
const refusalOf = (row: LoggedRequest) =>
  `${row.projectId}\u0000${row.status}\u0000${row.code}\u0000${Math.floor(row.at / 1_000)}`;

/** One more refusal in the row that counts them, and by which key (for usage, kept per key). */
function countIn(waiting: LoggedRequest, row: LoggedRequest): void {
  waiting.count = (waiting.count ?? 1) + 1;
  if (waiting.countsByKey === undefined && row.keyId === waiting.keyId) return;
  const counts = (waiting.countsByKey ??= new Map([[waiting.keyId, waiting.count - 1]]));
  counts.set(row.keyId, (counts.get(row.keyId) ?? 0) + 1);
}

/**
 * The request log writer's buffer, fair between projects: one project's flood never drops another
 * project's rows. While there is room every row is kept; when `capacity` rows wait, a row of project P
 * replaces the newest row of the project holding the most (if that one holds more than P, plus one), so
 * each project keeps at least an equal share of the buffer. Refusals (401, 403, 429) of a project's keys are
 * kept as one row per project, status, code and second, with their number: banned keys sending thousands
 * a second take a row a second, however many keys the project has.
 */
export function createRequestLogBuffer(
  capacity: number,
  now: () => number = () => performance.now(),
): RequestLogBuffer {
  /** Rows in arrival order from `head`; an evicted row leaves null. */
  let slots: (LoggedRequest | null)[] = [];
  let head = 0;
  let size = 0;
  const held = new Map<string, number>();
  /** A project holding the most rows, or close to it: checked before it gives up a row. */
  let largest: string | undefined;
  const refusals = new Map<string, LoggedRequest>();
  /** When each row counting refusals was made, by `now()`. */
  const madeAt = new Map<LoggedRequest, number>();
  /** The latest `at` offered: the caller's clock, as far as the rows tell it. */
  let latestAt = Number.NEGATIVE_INFINITY;
  const counting = (row: LoggedRequest) =>
    REFUSED_STATUSES.has(row.status) && refusals.get(refusalOf(row)) === row;
  const ripe = (row: LoggedRequest) =>
    latestAt >= (Math.floor(row.at / 1_000) + 1) * 1_000 || now() - madeAt.get(row)! >= 1_000;

  const release = (row: LoggedRequest) => {
    const left = held.get(row.projectId)! - 1;
    if (left === 0) held.delete(row.projectId);
    else held.set(row.projectId, left);
    if (counting(row)) {
      refusals.delete(refusalOf(row));
      madeAt.delete(row);
    }
  };

  /** A project holding more than `than` + 1 rows, the most of any; undefined when none does. */
  const richer = (than: number): string | undefined => {
    if (largest !== undefined && (held.get(largest) ?? 0) > than + 1) return largest;
    let most = than + 1;
    let found: string | undefined;
    for (const [project, count] of held) {
      if (count > most) [most, found] = [count, project];
    }
    if (found !== undefined) largest = found;
    return found;
  };

  const evictNewest = (project: string): LoggedRequest => {
    for (let i = slots.length - 1; i >= head; i--) {
      const row = slots[i];
      if (row?.projectId === project) {
        slots[i] = null;
        size--;
        release(row);
        return row;
      }
    }
    throw new Error(`no row of ${project} waits, though it is counted`);
  };

  return {
    get size() {
      return size;
    },
    offer(row) {
      if (row.at > latestAt) latestAt = row.at;
      const refused = REFUSED_STATUSES.has(row.status);
      if (refused) {
        const waiting = refusals.get(refusalOf(row));
        if (waiting) {
          countIn(waiting, row);
          return { kind: 'counted' };
        }
      }
      const mine = held.get(row.projectId) ?? 0;
      let evicted: LoggedRequest | undefined;
      if (size >= capacity) {
        // The project believed largest drops its own row without a search: it holds the most, or close.
        const victim = largest === row.projectId ? undefined : richer(mine);
        if (victim === undefined) return { kind: 'dropped' };
        evicted = evictNewest(victim);
      }
      slots.push(row);
      size++;
      held.set(row.projectId, mine + 1);
      if (largest === undefined || mine + 1 > (held.get(largest) ?? 0)) largest = row.projectId;
      if (refused) {
        refusals.set(refusalOf(row), row);
        madeAt.set(row, now());
      }
      return evicted ? { kind: 'added', evicted } : { kind: 'added' };
    },
    take(count, all = false) {
      const taken: LoggedRequest[] = [];
      const waiting: LoggedRequest[] = [];
      const end = slots.length;
      while (taken.length < count && head < end) {
        const row = slots[head++];
        if (!row) continue;
        if (!all && counting(row) && !ripe(row)) {
          waiting.push(row);
          continue;
        }
        size--;
        release(row);
        taken.push(row);
      }
      for (const row of waiting) slots.push(row);
      // Slots before `head` are gone: dropped from the array once they are most of it.
      if (head > 1_024 && head * 2 > slots.length) {
        slots = slots.slice(head);
        head = 0;
      }
      if (size === 0) [slots, head, largest] = [[], 0, undefined];
      return taken;
    },
  };
}
