import type { LoggedRequest, RequestLogRecords } from '../storage/request-log-records.ts';

export interface RequestLogWriterOptions {
  store: Pick<RequestLogRecords, 'write'>;
  /** Rows held in memory at most; a row arriving when it is full is dropped and counted. */
  maxBuffered?: number;
  /** Rows written together at most (one transaction). */
  batchSize?: number;
  /** A row waits at most this long before its batch is written. */
  flushIntervalMs?: number;
  onError: (error: unknown, rows: number) => void;
}

export interface RequestLogStats {
  written: number;
  /** Rows lost: the buffer was full, or their batch could not be written. */
  dropped: { bufferFull: number; writeFailed: number };
  /** Rows waiting now. */
  buffered: number;
}

export interface RequestLogWriter {
  /** Queues a row; never waits and never throws: a full buffer drops the row and counts it. */
  add(entry: LoggedRequest): void;
  /** Writes everything queued (on shutdown, before the database closes). */
  flush(): Promise<void>;
  stats(): RequestLogStats;
}

/**
 * A request shows in the Requests tab and `petstore logs` at most about flushIntervalMs after it was
 * answered: an owner looks for the call just made. Under load batches fill long before.
 */
export const REQUEST_LOG_DEFAULTS = { maxBuffered: 20_000, batchSize: 250, flushIntervalMs: 200 };

/**
 * The request log's writes, kept off the request path: rows wait in memory and are written in batches
 * of up to `batchSize`, one batch at a time, when a batch is full or `flushIntervalMs` after the first
 * row waiting (about that long after the last write, for the rows it left). A batch that fails is reported and dropped (the log never holds the API back), and so is
 * every row arriving while `maxBuffered` wait.
 */
export function createRequestLogWriter(options: RequestLogWriterOptions): RequestLogWriter {
  const { store, onError } = options;
  const maxBuffered = options.maxBuffered ?? REQUEST_LOG_DEFAULTS.maxBuffered;
  const batchSize = options.batchSize ?? REQUEST_LOG_DEFAULTS.batchSize;
  const intervalMs = options.flushIntervalMs ?? REQUEST_LOG_DEFAULTS.flushIntervalMs;
  let buffer: LoggedRequest[] = [];
  let written = 0;
  const dropped = { bufferFull: 0, writeFailed: 0 };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  /**
   * Writes full batches, and with `all` what remains too. A commit costs nearly as much for a few rows
   * as for a full batch, so rows that arrived while the first batch waited its turn (a full batch
   * triggers a write on a later turn) wait for the next full batch or the interval.
   */
  const drain = async (all: boolean) => {
    while (buffer.length >= batchSize || (all && buffer.length > 0)) {
      const batch = buffer.length <= batchSize ? buffer : buffer.slice(0, batchSize);
      buffer = batch === buffer ? [] : buffer.slice(batchSize);
      try {
        await store.write(batch);
        written += batch.length;
      } catch (error) {
        dropped.writeFailed += batch.length;
        onError(error, batch.length);
      }
    }
  };

  const start = (all: boolean): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    running ??= drain(all).finally(() => {
      running = undefined;
      if (buffer.length >= batchSize) timer = setTimeout(() => void start(false), 0).unref();
      else if (buffer.length > 0) timer = setTimeout(() => void start(true), intervalMs).unref();
    });
    return running;
  };

  return {
    add(entry) {
      if (buffer.length >= maxBuffered) {
        dropped.bufferFull++;
        return;
      }
      buffer.push(entry);
      if (running) return;
      // Written on a later turn, never inside the hook of the request that filled the batch.
      if (buffer.length === batchSize) {
        clearTimeout(timer);
        timer = setTimeout(() => void start(false), 0).unref();
      } else timer ??= setTimeout(() => void start(true), intervalMs).unref();
    },
    async flush() {
      while (running || buffer.length > 0) await (running ?? start(true));
    },
    stats: () => ({ written, dropped: { ...dropped }, buffered: buffer.length }),
  };
}
