import type { RequestLogRecords } from './request-log-records.ts';
import { bucketUpperMs, HOUR_MS, type UsageRow } from './usage-records.ts';

export type Step = 'hour' | 'day';

export const STEP_MS: Record<Step, number> = { hour: HOUR_MS, day: 24 * HOUR_MS };

/** How far back each step's chart reaches: 24 hours, 30 days. */
export const STEP_PERIODS: Record<Step, number> = { hour: 24, day: 30 };

/** One bar of a chart: a period's requests by status class and its latency percentiles. */
export interface Period {
  /** Epoch ms of its start (UTC hour or day). */
  start: number;
  ok: number;
  clientErrors: number;
  rateLimited: number;
  serverErrors: number;
  total: number;
  /** Upper bounds of the latency buckets holding the 50th and 99th percentile; null without requests. */
  p50Ms: number | null;
  p99Ms: number | null;
}

/** The periods a chart at `now` shows: the last STEP_PERIODS[step], the current one included. */
export function chartWindow(step: Step, now: number): { since: number; until: number } {
  const size = STEP_MS[step];
  const until = (Math.floor(now / size) + 1) * size;
  return { since: until - STEP_PERIODS[step] * size, until };
}

function percentile(buckets: Map<number, number>, total: number, p: number): number | null {
  if (total === 0) return null;
  const rank = Math.ceil(p * total);
  let seen = 0;
  for (const bucket of [...buckets.keys()].sort((a, b) => a - b)) {
    seen += buckets.get(bucket)!;
    if (seen >= rank) return Math.round(bucketUpperMs(bucket) * 100) / 100;
  }
  return null;
}

/** Every period of the window, in order, with zeros where nothing was requested. */
export function toPeriods(rows: readonly UsageRow[], step: Step, since: number, until: number): Period[] {
  const size = STEP_MS[step];
  const periods: { period: Period; buckets: Map<number, number> }[] = [];
  for (let start = since; start < until; start += size) {
    periods.push({
      period: {
        start,
        ok: 0,
        clientErrors: 0,
        rateLimited: 0,
        serverErrors: 0,
        total: 0,
        p50Ms: null,
        p99Ms: null,
      },
      buckets: new Map(),
    });
  }
  for (const row of rows) {
    const slot = periods[Math.floor((row.hour - since) / size)];
    if (!slot) continue;
    const { period, buckets } = slot;
    if (row.statusClass === '2xx') period.ok += row.count;
    else if (row.statusClass === '4xx') period.clientErrors += row.count;
    else if (row.statusClass === '429') period.rateLimited += row.count;
    else if (row.statusClass === '5xx') period.serverErrors += row.count;
    period.total += row.count;
    buckets.set(row.bucket, (buckets.get(row.bucket) ?? 0) + row.count);
  }
  return periods.map(({ period, buckets }) => ({
    ...period,
    p50Ms: percentile(buckets, period.total, 0.5),
    p99Ms: percentile(buckets, period.total, 0.99),
  }));
}

/** `period_start,2xx,4xx,429,5xx,total,p50_ms,p99_ms`, one line per period. */
export function periodsCsv(periods: readonly Period[]): string {
  const lines = ['period_start,2xx,4xx,429,5xx,total,p50_ms,p99_ms'];
  for (const p of periods) {
    lines.push(
      [
        new Date(p.start).toISOString(),
        p.ok,
        p.clientErrors,
        p.rateLimited,
        p.serverErrors,
        p.total,
        p.p50Ms ?? '',
        p.p99Ms ?? '',
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The project's (or one key's) chart periods at `now`, read from the rollups. */
export async function usagePeriods(
  records: Pick<RequestLogRecords, 'usage'>,
  query: { projectId: string; keyId?: string; step: Step; now: number },
): Promise<Period[]> {
  const { since, until } = chartWindow(query.step, query.now);
  const rows = await records.usage({ projectId: query.projectId, keyId: query.keyId, since, until });
  return toPeriods(rows, query.step, since, until);
}

/** Every key's hourly periods over the last 24 hours, from one query. */
export async function periodsByKey(
  records: Pick<RequestLogRecords, 'usage'>,
  projectId: string,
  now: number,
): Promise<Map<string, Period[]>> {
  const { since, until } = chartWindow('hour', now);
  const rows = await records.usage({ projectId, since, until, byKey: true });
  const byKey = Map.groupBy(rows, (row) => row.keyId!);
  return new Map([...byKey].map(([keyId, keyRows]) => [keyId, toPeriods(keyRows, 'hour', since, until)]));
}
