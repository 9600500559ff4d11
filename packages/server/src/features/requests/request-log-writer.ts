import type { LoggedRequest, RequestLogRecords } from './request-log-records.ts';
import { createUsageTally } from './usage-records.ts';
import { createRequestLogBuffer } from './request-log-buffer.ts';
import { createTopCounts } from './top-counts.ts';

/** Projects whose drops are counted by name (the most dropped are always among them). */
const DROP_COUNTED_PROJECTS = 100;
/** Projects named in the metrics and in a drop report. */
export const DROP_REPORTED_PROJECTS = 10;

export interface RequestLogWriterOptions {
  /**
   * Where rows go. With `addUsage`, usage cells are counted in memory and written every
   * `usageFlushMs`; without it, each batch's write stores its own cells.
   */
  store: Pick<RequestLogRecords, 'write'> & Partial<Pick<RequestLogRecords, 'addUsage'>>;
  /** Counted usage waits at most this long in memory (default 60 s). */
  usageFlushMs?: number;
  /** Cells held in memory at most: reaching it writes them at once (default 200,000). */
  maxUsageCells?: number;
  /** Rows held in memory at most; a row arriving when it is full is dropped and counted. */
  maxBuffered?: number;
  /** Rows written together at most (one transaction). */
  batchSize?: number;
  /** A row waits at most this long before its batch is written. */
  flushIntervalMs?: number;
  onError: (error: unknown, rows: number) => void;
  /**
   * Told of rows dropped because the buffer was full, at most once per `dropReportMs`: how many since
   * the last report, and the projects that lost the most of them.
   */
  onDropped?: (report: DropReport) => void;
  /** Default 10 s. */
  dropReportMs?: number;
  /** Milliseconds of a monotonic clock (default performance.now), for the drop reports. */
  now?: () => number;
}

export interface DropReport {
  rows: number;
  /** Up to DROP_REPORTED_PROJECTS projects, those that lost the most rows first. */
  projects: { name: string; count: number }[];
}

export interface RequestLogStats {
  written: number;
  /** Rows lost: the buffer was full, or their batch could not be written. */
  dropped: { bufferFull: number; writeFailed: number };
  /** Rows waiting now. */
  buffered: number;
  /** The projects that lost the most rows to a full buffer since the start (bounded: see TopCounts). */
  droppedProjects: { name: string; count: number }[];
  /**
   * Refusals (401, 403, 429) counted in a waiting row of the same project, second, status and code
   * instead of a row of their own.
   */
  coalesced: number;
  /** Usage cells counted in memory, not yet written. */
  usagePending: number;
}

export interface RequestLogWriter {
  /** Queues a row; never waits and never throws: a full buffer drops the row and counts it. */
  add(entry: LoggedRequest): void;
  /** Writes everything queued (on shutdown, before the database closes). */
  flush(): Promise<void>;
  /**
   * Resolves once every row queued before the call is written (or dropped by a failed write), without
   * waiting for the interval; rows queued meanwhile do not hold it up, however busy the service is.
   * A page of the log calls it first, so the calls this instance just answered are on it.
   */
  settle(): Promise<void>;
  stats(): RequestLogStats;
}

/**
 * A request shows in `petstore logs` and on other instances' pages at most about flushIntervalMs after
 * it was answered (an owner looks for the call just made; its own instance's pages settle() first).
 * Under load batches fill long before, so the interval costs commits only when the service is quiet.
 */
export const REQUEST_LOG_DEFAULTS = {
  maxBuffered: 20_000,
  batchSize: 250,
  flushIntervalMs: 50,
  usageFlushMs: 60_000,
  maxUsageCells: 200_000,
};

/**
 * Cells a usage write holds at most (one transaction or statement): on SQLite a write's upserts run in
 * one synchronous turn, and 2,000 of them take a few milliseconds.
 */
export const USAGE_WRITE_CELLS = 2_000;

/**
 * The request log's writes, kept off the request path: rows wait in memory and are written in batches
 * of up to `batchSize`, one batch at a time, when a batch is full or `flushIntervalMs` after the first
 * row waiting (about that long after the last write, for the rows it left). A batch that fails is
 * reported and dropped (the log never holds the API back). While `maxBuffered` wait, a row takes the
 * place of the newest row of the project holding the most, or is dropped when its own project holds as
 * many (request-log-buffer.ts): one project's flood never drops another project's rows. Refusals (401,
 * 403, 429) of a project's keys are kept as one row per second, status and code with their number.
 */
export function createRequestLogWriter(options: RequestLogWriterOptions): RequestLogWriter {
  const { store, onError } = options;
  const maxBuffered = options.maxBuffered ?? REQUEST_LOG_DEFAULTS.maxBuffered;
  const batchSize = options.batchSize ?? REQUEST_LOG_DEFAULTS.batchSize;
  const intervalMs = options.flushIntervalMs ?? REQUEST_LOG_DEFAULTS.flushIntervalMs;
  const buffer = createRequestLogBuffer(maxBuffered);
  let written = 0;
  let coalesced = 0;
  const dropped = { bufferFull: 0, writeFailed: 0 };
  const droppedSinceStart = createTopCounts(DROP_COUNTED_PROJECTS);
  const droppedSinceReport = createTopCounts(DROP_COUNTED_PROJECTS);
  const now = options.now ?? (() => performance.now());
  const dropReportMs = options.dropReportMs ?? 10_000;
  let lastReportAt = Number.NEGATIVE_INFINITY;
  const usageFlushMs = options.usageFlushMs ?? REQUEST_LOG_DEFAULTS.usageFlushMs;
  const maxUsageCells = options.maxUsageCells ?? REQUEST_LOG_DEFAULTS.maxUsageCells;
  const tally = store.addUsage ? createUsageTally() : undefined;
  let usageTimer: NodeJS.Timeout | undefined;
  let usageWrites: Promise<void> = Promise.resolve();
  /**
   * Writes every counted cell, a bounded slice a transaction, one write after another; cells of a
   * failed write go back into the tally and are written next time (the rows themselves are stored).
   */
  const writeUsage = (): Promise<void> => {
    clearTimeout(usageTimer);
    usageTimer = undefined;
    usageWrites = usageWrites.then(async () => {
      if (!tally || tally.size === 0) return;
      const cells = tally.take();
      for (let from = 0; from < cells.length; from += USAGE_WRITE_CELLS) {
        try {
          await store.addUsage!(cells.slice(from, from + USAGE_WRITE_CELLS));
        } catch (error) {
          tally.restore(cells.slice(from));
          onError(error, 0);
          usageTimer ??= setTimeout(() => void writeUsage(), usageFlushMs).unref();
          return;
        }
      }
    });
    return usageWrites;
  };
  const counted = (batch: readonly LoggedRequest[]) => {
    tally!.add(batch);
    if (tally!.size >= maxUsageCells) void writeUsage();
    else usageTimer ??= setTimeout(() => void writeUsage(), usageFlushMs).unref();
  };
  const report = (force: boolean) => {
    if (droppedSinceReport.total === 0 || !options.onDropped) return;
    if (!force && now() - lastReportAt < dropReportMs) return;
    lastReportAt = now();
    options.onDropped({
      rows: droppedSinceReport.total,
      projects: droppedSinceReport.top(DROP_REPORTED_PROJECTS),
    });
    droppedSinceReport.clear();
  };
  const drop = (row: LoggedRequest) => {
    dropped.bufferFull++;
    droppedSinceStart.add(row.projectId);
    droppedSinceReport.add(row.projectId);
    report(false);
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** Rows taken into the buffer, and rows whose batch was written or failed, since the start. */
  let queued = 0;
  let done = 0;
  /** settle() calls waiting for `done` to reach the `queued` they saw. */
  let waiters: { upTo: number; resolve: () => void }[] = [];

  const finished = (rows: number) => {
    done += rows;
    if (waiters.length === 0) return;
    for (const waiter of waiters) if (waiter.upTo <= done) waiter.resolve();
    waiters = waiters.filter((waiter) => waiter.upTo > done);
  };

  /**
   * Writes full batches, and with `all` the rows waiting when it starts too. A commit costs nearly as
   * much for a few rows as for a full batch, so rows that arrive meanwhile (a full batch triggers a
   * write on a later turn, and a PostgreSQL write waits for its answer) wait for the next full batch
   * or the interval: a busy service never falls into commits of a few rows each.
   */
  const drain = async (all: boolean) => {
    let owed = all ? buffer.size : 0;
    stalled = false;
    while (buffer.size >= batchSize || (owed > 0 && buffer.size > 0)) {
      // Rows counting refusals wait for their second to pass, unless someone waits for every row.
      const batch = buffer.take(batchSize, flushing > 0 || waiters.length > 0);
      if (batch.length === 0) {
        stalled = true;
        break;
      }
      try {
        if (tally) {
          await store.write(batch, { usage: false });
          counted(batch);
        } else await store.write(batch);
        written += batch.length;
      } catch (error) {
        dropped.writeFailed += batch.length;
        onError(error, batch.length);
      }
      finished(batch.length);
      owed = Math.max(0, owed - batch.length);
    }
    report(false);
  };

  /** flush() calls under way, and whether the last drain found only rows counting refusals. */
  let flushing = 0;
  let stalled = false;

  const start = (all: boolean): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    running ??= drain(all).finally(() => {
      running = undefined;
      if (waiters.length > 0) timer = setTimeout(() => void start(true), 0).unref();
      else if (buffer.size >= batchSize && !stalled) timer = setTimeout(() => void start(false), 0).unref();
      else if (buffer.size > 0) timer = setTimeout(() => void start(true), intervalMs).unref();
    });
    return running;
  };

  return {
    add(entry) {
      const offered = buffer.offer(entry);
      if (offered.kind === 'counted') {
        coalesced++;
        return;
      }
      if (offered.kind === 'dropped') {
        drop(entry);
        return;
      }
      queued++;
      if (offered.evicted) {
        // Made room for a project holding fewer rows: never written, so no settle() waits for it.
        drop(offered.evicted);
        finished(1);
      }
      if (running) return;
      // Written on a later turn, never inside the hook of the request that filled the batch.
      if (buffer.size === batchSize) {
        clearTimeout(timer);
        timer = setTimeout(() => void start(false), 0).unref();
      } else timer ??= setTimeout(() => void start(true), intervalMs).unref();
    },
    async flush() {
      flushing++;
      try {
        while (running || buffer.size > 0) await (running ?? start(true));
        await writeUsage();
      } finally {
        flushing--;
      }
      report(true);
    },
    async settle() {
      if (done < queued) {
        const settled = new Promise<void>((resolve) => waiters.push({ upTo: queued, resolve }));
        // A write under way is left to finish; the rows after it are written as soon as it has.
        if (!running) void start(true);
        await settled;
      }
      // The pages that settle show usage too: this instance's counts are written first.
      await writeUsage();
    },
    stats: () => ({
      written,
      dropped: { ...dropped },
      buffered: buffer.size,
      droppedProjects: droppedSinceStart.top(DROP_REPORTED_PROJECTS),
      coalesced,
      usagePending: tally?.size ?? 0,
    }),
  };
}
