import type {
  ChangeHandlers,
  ChangeListener,
  ChangeRecords,
  HostChange,
  NotifiedRange,
} from '../storage/change-records.ts';
import type { Clock } from '../time/clock.ts';
import { createEchoes, type Echoes } from './echoes.ts';

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
  /**
   * PostgreSQL: tells `handlers` of each NOTIFY of a change (with the sequence numbers it appended)
   * and of each other instance's message, until closed; sends this instance's.
   */
  listen?: (handlers: ChangeHandlers) => ChangeListener;
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
  /**
   * Whether a notification arrived that no finished read of the feed began after: a cache must then
   * wait for applyNotified before it answers, or it could answer from what a change elsewhere replaced.
   */
  behind(): boolean;
  /** Resolves once a read that began after the last notification received has handed its changes on. */
  applyNotified(): Promise<void>;
  /**
   * For the instance that committed change `seq`: resolves true once the change has been handed to
   * this instance's subscribers and, on PostgreSQL, once its own notification has come back through
   * LISTEN and every other listening instance it knows has acknowledged applying it (echoes.ts);
   * false when that took longer than ECHO_TIMEOUT_MS (or the feed could not be read), and the caller
   * answers anyway.
   */
  echo(seq: number): Promise<boolean>;
  /** How many other listening instances this one knows (PostgreSQL): those `echo` waits for. */
  peers(): number;
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
  /** Notifications received; the count a read began with, and the highest a finished read began with. */
  let notified = 0;
  let runningFrom = 0;
  let covered = 0;
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
  let listener: ChangeListener | undefined;
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
  const applied = (seq: number) => floor !== undefined && (seq <= floor || seen.has(seq));
  const echoes: Echoes | undefined =
    deps.listen &&
    createEchoes({
      send: async (message) => listener?.send(message),
      applied,
      log: deps.log,
    });
  const read = async () => {
    const from = notified;
    runningFrom = from;
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
    covered = Math.max(covered, from);
    echoes?.read();
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
  const onNotify = (range?: NotifiedRange) => {
    if (closed) return;
    notified++;
    // Without a range: the listener (re)connected, and every other instance learns of this one.
    if (range) echoes?.notified(range);
    else echoes?.listening();
    catchUp().catch(() => {});
  };
  const applyNotified = (): Promise<void> => {
    if (covered >= notified) return Promise.resolve();
    if (running && runningFrom >= notified) return running;
    return catchUp();
  };
  // Without a LISTEN connection (SQLite, or PostgreSQL's while it reconnects) nothing can come back:
  // the change is answered once applied here.
  const echo = (seq: number): Promise<boolean> =>
    echoes?.up()
      ? echoes.wait(seq)
      : catchUp().then(
          () => applied(seq),
          () => false,
        );
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
    behind: () => covered < notified,
    applyNotified,
    echo,
    peers: () => echoes?.peers() ?? 0,
    epoch: () => epoch,
    started: () => floor !== undefined,
    subscribe(apply) {
      subscribers.push(apply);
    },
    problem: () => (failure === undefined ? undefined : `change feed unreadable (${failure})`),
    start() {
      if (timer || closed) return;
      timer = setInterval(tick, deps.pollMs ?? CHANGE_POLL_MS).unref();
      listener = deps.listen?.({
        change: onNotify,
        peer: (message) => echoes?.heard(message),
        lost: () => echoes?.lost(),
      });
      catchUp().catch(() => {});
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await echoes?.close();
      await listener?.close();
    },
  };
}

/**
 * What a cache that follows the feed does before it answers from memory: read the feed when this
 * process may have committed a change the feed has not read yet (`writeMark` moved: SQLite's change
 * token, this process's own writes on PostgreSQL), or when a notification arrived that no finished read
 * covers (a change committed by another instance). Returns the wait, or undefined when there is none,
 * as nearly always (no promise on the hot path). A feed that cannot be read is not waited for again:
 * the caller trusts its entries briefly (and readiness reports the feed's problem).
 */
export function feedFollower(
  feed: Pick<ChangeFeed, 'catchUp' | 'behind' | 'applyNotified'>,
  writeMark: () => number | undefined,
): () => Promise<void> | undefined {
  let seen = writeMark();
  return () => {
    const mark = writeMark();
    if (mark !== seen) {
      return feed.catchUp().then(
        () => {
          seen = mark;
        },
        () => {},
      );
    }
    return feed.behind() ? feed.applyNotified().catch(() => {}) : undefined;
  };
}
