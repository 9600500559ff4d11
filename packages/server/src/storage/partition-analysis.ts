export interface MaintenanceLog {
  warn(obj: object, msg: string): void;
}

/**
 * Row counts at which a partition is analysed: a new day's partition has no statistics until
 * autovacuum reaches it (a minute or more after a bulk load), and meanwhile the planner picks plans
 * that make the rarer filters of the Requests tab 15 times slower. Each step is ten times the last,
 * so a day costs a handful of analyses however many rows it gets.
 */
export const ANALYZE_AT_ROWS = [1_000, 10_000, 100_000, 1_000_000, 10_000_000] as const;

/** SQLSTATE of a table that no longer exists: a partition the purge dropped meanwhile. */
const UNDEFINED_TABLE = '42P01';

export interface PartitionAnalysis {
  /** Counts rows written to a partition; runs ANALYZE in the background when a step is crossed. */
  wrote(partition: string, rows: number): void;
  /** Resolves once no analysis is queued or running. */
  idle(): Promise<void>;
  /** Forgets a dropped partition's count. */
  forget(partition: string): void;
  /** Starts no further analysis (the pool is closing). */
  stop(): void;
}

/**
 * Analyses partitions off the write path, one at a time: `analyze` is not awaited by the writer and
 * ANALYZE takes a lock that inserts do not wait for. A failure is logged and the next step tries again.
 */
export function createPartitionAnalysis(
  analyze: (partition: string) => Promise<void>,
  log: () => MaintenanceLog,
): PartitionAnalysis {
  const written = new Map<string, number>();
  const queued = new Set<string>();
  let chain = Promise.resolve();
  let stopped = false;

  const run = async (partition: string) => {
    queued.delete(partition);
    if (stopped) return;
    try {
      await analyze(partition);
    } catch (error) {
      if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return;
      log().warn({ err: error, partition }, 'could not analyse a request log partition; trying again later');
    }
  };

  return {
    wrote(partition, rows) {
      const before = written.get(partition) ?? 0;
      const after = before + rows;
      written.set(partition, after);
      const crossed = ANALYZE_AT_ROWS.some((step) => before < step && after >= step);
      if (!crossed || stopped || queued.has(partition)) return;
      queued.add(partition);
      chain = chain.then(() => run(partition));
    },
    idle: () => chain,
    forget: (partition) => void written.delete(partition),
    stop() {
      stopped = true;
    },
  };
}
