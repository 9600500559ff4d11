import type { ChangeRecords, HostChange } from '../storage/change-records.ts';
import type { Clock } from '../time/clock.ts';

/** How often an instance reads the feed on its own (PostgreSQL's NOTIFY makes it read at once too). */
export const CHANGE_POLL_MS = 1_000;
/** Changes are kept this long, then pruned: an instance further behind forgets everything it cached. */
export const CHANGE_RETAIN_MS = 60 * 60_000;
/** How often an instance prunes, at most PRUNE_LIMIT rows each time: a bounded statement. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_LIMIT = 1_000;
/** Rows read per statement; a longer backlog is read in further statements of this size. */
const READ_LIMIT = 500;
/**
 * A sequence number missing below one already read is a transaction not yet committed (PostgreSQL hands
 * numbers out before commit) or one rolled back: it is read again until this long has passed.
 */
const GAP_GRACE_MS = 10_000;

export interface ChangeFeedDeps {
  changes: ChangeRecords;
  /** SQLite: a number that moves with every commit; unchanged since the last read, there is nothing new. */
  changeToken: () => number | undefined;
  /** PostgreSQL: calls `onNotify` at each NOTIFY of a change, until closed. */
  listen?: (onNotify: () => void) => { close(): Promise<void> };
  clock: Clock;
  /** Where failures go, once per run of failures. */
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  pollMs?: number;
}

/** What a reader is told: the changes read, or `all` when it may have missed some (forget everything). */
export type ChangeBatch = readonly HostChange[] | 'all';

export interface ChangeFeed {
  /** Resolves once every change committed before the call has been handed to the subscribers. */
  catchUp(): Promise<void>;
  /** Moves whenever subscribers were told of changes: a lookup that began before must not be cached. */
  epoch(): number;
  /** Whether the feed has its starting point: before, nothing read from the database may be cached. */
  started(): boolean;
  subscribe(apply: (batch: ChangeBatch) => void): void;
  /** Why the feed cannot be read now, or undefined when it can (readiness). */
  problem(): string | undefined;
  /** Reads on a timer (and on NOTIFY) from now on. */
  start(): void;
  close(): Promise<void>;
}

/**
 * The change feed's reader (see migration 090): every instance reads the changes after the last one it
 * has seen — an index range, nothing when idle — every CHANGE_POLL_MS, at each NOTIFY on PostgreSQL,
 * and whenever a request must see every committed change first (catchUp; on SQLite free while the
 * database's data_version has not moved). Reads are never run twice at once; callers share them.
 */
export function createChangeFeed(deps: ChangeFeedDeps): ChangeFeed {
  const subscribers: ((batch: ChangeBatch) => void)[] = [];
  let floor: number | undefined;
  const seen = new Set<number>();
  const gaps = new Map<number, number>();
  let epoch = 0;
  let readToken: number | undefined;
  let lastReadAt = -Infinity;
  let lastPruneAt = -Infinity;
  let failure: string | undefined;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let listener: { close(): Promise<void> } | undefined;
  let closed = false;

  const tell = (batch: ChangeBatch) => {
    epoch++;
    for (const apply of subscribers) apply(batch);
  };
  const advance = () => {
    const now = performance.now();
    while (seen.size > 0 && floor !== undefined) {
      const next = floor + 1;
      if (seen.delete(next)) {
        floor = next;
        gaps.delete(next);
        continue;
      }
      const noticed = gaps.get(next);
      if (noticed === undefined) gaps.set(next, now);
      else if (now - noticed >= GAP_GRACE_MS) {
        gaps.delete(next);
        floor = next;
        continue;
      }
      break;
    }
  };
  const read = async () => {
    const token = deps.changeToken();
    if (floor === undefined) {
      floor = await deps.changes.newest();
    } else {
      if (performance.now() - lastReadAt > CHANGE_RETAIN_MS / 2) tell('all');
      let cursor = floor;
      for (;;) {
        const rows = await deps.changes.since(cursor, READ_LIMIT);
        const fresh = rows.filter((row) => !seen.has(row.seq));
        for (const row of fresh) seen.add(row.seq);
        if (fresh.length > 0) tell(fresh);
        if (rows.length < READ_LIMIT) break;
        cursor = rows.at(-1)!.seq;
      }
      advance();
    }
    readToken = token;
    lastReadAt = performance.now();
    if (failure !== undefined) deps.log.info({}, 'the change feed (hosts and keys) is read again');
    failure = undefined;
  };
  const runRead = (): Promise<void> =>
    (running = read()
      .catch((error: unknown) => {
        if (failure === undefined)
          deps.log.warn({ err: error }, 'the change feed (hosts and keys) could not be read');
        failure = (error as Error).message;
        throw error;
      })
      .finally(() => {
        running = undefined;
      }));
  const catchUp = (): Promise<void> => {
    const token = deps.changeToken();
    if (token !== undefined && token === readToken && failure === undefined && floor !== undefined) {
      return Promise.resolve();
    }
    if (!running) return runRead();
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return runRead();
      });
    return queued;
  };
  const tick = () => {
    if (closed) return;
    readToken = undefined;
    catchUp().catch(() => {});
    const now = deps.clock.now();
    if (now - lastPruneAt >= PRUNE_EVERY_MS && floor !== undefined) {
      lastPruneAt = now;
      deps.changes.prune(now - CHANGE_RETAIN_MS, PRUNE_LIMIT).catch(() => {});
    }
  };
  return {
    catchUp,
    epoch: () => epoch,
    started: () => floor !== undefined,
    subscribe(apply) {
      subscribers.push(apply);
    },
    problem: () => (failure === undefined ? undefined : `change feed unreadable (${failure})`),
    start() {
      if (timer || closed) return;
      timer = setInterval(tick, deps.pollMs ?? CHANGE_POLL_MS).unref();
      listener = deps.listen?.(() => {
        if (!closed) catchUp().catch(() => {});
      });
      catchUp().catch(() => {});
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await listener?.close();
    },
  };
}
