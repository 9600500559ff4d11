import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { deleteWhere } from '../../storage/limited-delete.ts';

/** How usage counts a status: 429 apart from the other 4xx. */
export type StatusClass = '2xx' | '4xx' | '429' | '5xx' | 'other';

export function statusClass(status: number): StatusClass {
  if (status === 429) return '429';
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500 && status < 600) return '5xx';
  return 'other';
}

/** Latency buckets grow by 25 % from 0.1 ms: a percentile read from them is within 25 % of the truth. */
const BASE_MS = 0.1;
const GROWTH = 1.25;
export const LATENCY_BUCKETS = 64;

export function latencyBucket(ms: number): number {
  if (!(ms > BASE_MS)) return 0;
  return Math.min(LATENCY_BUCKETS - 1, Math.ceil(Math.log(ms / BASE_MS) / Math.log(GROWTH) - 1e-9));
}

/** The largest latency a bucket holds, in ms. */
export const bucketUpperMs = (bucket: number): number => BASE_MS * GROWTH ** bucket;

export const HOUR_MS = 3_600_000;

/** One rollup cell: how many requests of a key in an hour had this status class and latency bucket. */
export interface UsageCell {
  projectId: string;
  keyId: string;
  hour: number;
  statusClass: StatusClass;
  bucket: number;
  count: number;
}

/** What usage reads of a logged request (`LoggedRequest` has these and more). */
export interface UsageSample {
  projectId: string;
  keyId: string;
  at: number;
  status: number;
  latencyMs: number;
  /** Requests the sample stands for (default 1). */
  count?: number;
  /** When the sample stands for requests of several keys: each key's number of them. */
  countsByKey?: ReadonlyMap<string, number>;
}

/** Status classes in the order of their text, so that cells sort as their text ids always did. */
const CLASSES: readonly StatusClass[] = ['2xx', '429', '4xx', '5xx', 'other'];
/** Each latency bucket's rank when the buckets are sorted as decimal text ('0', '1', '10', '11', …). */
const BUCKET_RANK: readonly number[] = (() => {
  const byText = Array.from({ length: LATENCY_BUCKETS }, (_, bucket) => String(bucket)).sort();
  return Array.from({ length: LATENCY_BUCKETS }, (_, bucket) => byText.indexOf(String(bucket)));
})();

/**
 * Cells counted in memory: requests added one batch after another, taken out as cells in one order for
 * every writer, so concurrent upserts of the same cells never deadlock: the order of the text
 * `project \0 key \0 hour \0 class \0 bucket`, which every version has used (a rolling upgrade mixes
 * versions). Cells are found by project and key (the same string objects, whose hashes V8 keeps) and
 * then by one number that sorts the same way: no text is built per row.
 */
export interface UsageTally {
  add(samples: readonly UsageSample[]): void;
  /** Puts back cells taken out (a write that failed); their counts add to those counted since. */
  restore(cells: readonly UsageCell[]): void;
  /** Cells held now. */
  readonly size: number;
  /** Every cell held, in the one order, leaving the tally empty. */
  take(): UsageCell[];
}

export function createUsageTally(): UsageTally {
  // A key's cells in a minute are a few (an hour, a status class, a latency bucket each): an array
  // searched in order costs less than a Map a key, in time and in memory (50,000 keys in use).
  let byProject = new Map<string, Map<string, UsageCell[]>>();
  let size = 0;
  const slotOfCell = (cell: UsageCell) => slotOf(cell.hour / HOUR_MS, cell.statusClass, cell.bucket);
  const count = (projectId: string, keyId: string, slot: number, make: () => UsageCell, n: number) => {
    let byKey = byProject.get(projectId);
    if (!byKey) byProject.set(projectId, (byKey = new Map()));
    const cells = byKey.get(keyId);
    const found = cells?.find((cell) => slotOfCell(cell) === slot);
    if (found) found.count += n;
    else {
      // A new array of exactly its cells: a push or a spread reserves room for 16 more (140 B a key).
      byKey.set(keyId, cells ? cells.concat(make()) : [make()]);
      size++;
    }
  };
  const slotOf = (hourIndex: number, cls: StatusClass, bucket: number) =>
    (hourIndex * CLASSES.length + CLASSES.indexOf(cls)) * LATENCY_BUCKETS + BUCKET_RANK[bucket]!;
  return {
    add(samples) {
      for (const entry of samples) {
        const hour = Math.floor(entry.at / HOUR_MS);
        const cls = statusClass(entry.status);
        const bucket = latencyBucket(entry.latencyMs);
        const slot = slotOf(hour, cls, bucket);
        const one = (keyId: string, n: number) =>
          count(
            entry.projectId,
            keyId,
            slot,
            () => ({
              projectId: entry.projectId,
              keyId,
              hour: hour * HOUR_MS,
              statusClass: cls,
              bucket,
              count: n,
            }),
            n,
          );
        if (entry.countsByKey === undefined) one(entry.keyId, entry.count ?? 1);
        // A row counting several keys' refusals: each key's usage counts its own.
        else for (const [keyId, n] of entry.countsByKey) one(keyId, n);
      }
    },
    restore(cells) {
      for (const cell of cells)
        count(
          cell.projectId,
          cell.keyId,
          slotOf(cell.hour / HOUR_MS, cell.statusClass, cell.bucket),
          () => ({ ...cell }),
          cell.count,
        );
    },
    get size() {
      return size;
    },
    take() {
      const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const ordered: UsageCell[] = [];
      for (const project of [...byProject.keys()].sort(byText)) {
        const byKey = byProject.get(project)!;
        for (const key of [...byKey.keys()].sort(byText)) {
          ordered.push(...byKey.get(key)!.sort((a, b) => slotOfCell(a) - slotOfCell(b)));
        }
      }
      byProject = new Map();
      size = 0;
      return ordered;
    },
  };
}

/** The cells a batch adds to, in the one order (createUsageTally). */
export function rollUp(batch: readonly UsageSample[]): UsageCell[] {
  const tally = createUsageTally();
  tally.add(batch);
  return tally.take();
}

export const UPSERT_USAGE_CONFLICT = `ON CONFLICT (project_id, hour, key_id, class, bucket)
  DO UPDATE SET count = request_usage.count + excluded.count`;

export interface UsageQuery {
  projectId: string;
  keyId?: string;
  /** Inclusive, epoch ms (rounded down to its hour). */
  since: number;
  /** Exclusive, epoch ms. */
  until: number;
  /** Cells per key (keyId set) rather than summed over the project's keys. */
  byKey?: boolean;
}

/** Counts summed over the query: per hour, class and bucket (and key, when asked). */
export interface UsageRow {
  hour: number;
  keyId: string | undefined;
  statusClass: StatusClass;
  bucket: number;
  count: number;
}

export function usageReads(sql: SqlExecutor) {
  return {
    async usage(query: UsageQuery): Promise<UsageRow[]> {
      const params: unknown[] = [query.projectId, Math.floor(query.since / HOUR_MS) * HOUR_MS, query.until];
      let where = 'project_id = $1 AND hour >= $2 AND hour < $3';
      if (query.keyId !== undefined) {
        params.push(query.keyId);
        where += ' AND key_id = $4';
      }
      const key = query.byKey ? 'key_id, ' : '';
      const rows = await sql.all(
        `SELECT ${key}hour, class, bucket, sum(count) AS count FROM request_usage WHERE ${where}
         GROUP BY ${key}hour, class, bucket ORDER BY ${key}hour`,
        params,
      );
      return rows.map((row) => ({
        hour: Number(row.hour),
        keyId: query.byKey ? (row.key_id as string) : undefined,
        statusClass: row.class as StatusClass,
        bucket: Number(row.bucket),
        count: Number(row.count),
      }));
    },
    async purgeUsage(before: number, limit?: number): Promise<number> {
      return sql.run(
        deleteWhere('request_usage', 'project_id, hour, key_id, class, bucket', 'hour < $1', limit),
        [before],
      );
    },
  };
}
