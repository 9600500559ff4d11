import { type Family, formatLabels, histogramSamples, type Sample } from './exposition.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'] as const;
const OTHER_METHOD = METHODS.length - 1;
/** HTTP status codes are 100..599; one slot per code keeps the request counter a plain array. */
const STATUS_SLOTS = 600;

/** Request durations in seconds: fine below 10 ms, where this API answers, up to 2.5 s. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const BUCKETS_MS = DURATION_BUCKETS.map((seconds) => seconds * 1_000);

export type RefusalReason = 'rate_limited' | 'temporarily_banned';

function methodIndex(method: string): number {
  for (let i = 0; i < OTHER_METHOD; i++) if (METHODS[i] === method) return i;
  return OTHER_METHOD;
}

export interface HttpMetrics {
  /** Makes an operation label known, so its series are reported before its first request. */
  declare(operation: string): void;
  /** One answered request of an operation (the matched route's label); `ms` is how long it took. */
  observe(operation: string, method: string, status: number, ms: number): void;
  petCreated(): void;
  refused(reason: RefusalReason): void;
  banned(): void;
  families(): Family[];
}

interface OperationSeries {
  /**
   * Indexed by method and status; zeros are not reported. Made on the operation's first request: at
   * 38 KB each, the few hundred declared operations would otherwise hold 10 MB of zeros.
   */
  requests: Float64Array | undefined;
  /** Duration buckets (linear scan), then their sum in seconds. */
  counts: Float64Array;
  sum: number;
}

/** Counters kept as plain numbers in one set of arrays per operation label. */
export function createHttpMetrics(): HttpMetrics {
  const operations = new Map<string, OperationSeries>();
  const seriesOf = (operation: string): OperationSeries => {
    let series = operations.get(operation);
    if (!series) {
      series = {
        requests: undefined,
        counts: new Float64Array(BUCKETS_MS.length + 1),
        sum: 0,
      };
      operations.set(operation, series);
    }
    return series;
  };
  const refusals = { rate_limited: 0, temporarily_banned: 0 };
  let bans = 0;
  let petsCreated = 0;

  return {
    declare(operation) {
      seriesOf(operation);
    },
    observe(operation, method, status, ms) {
      const series = seriesOf(operation);
      series.requests ??= new Float64Array(METHODS.length * STATUS_SLOTS);
      series.requests[methodIndex(method) * STATUS_SLOTS + (status % STATUS_SLOTS)]!++;
      let bucket = 0;
      while (bucket < BUCKETS_MS.length && ms > BUCKETS_MS[bucket]!) bucket++;
      series.counts[bucket]!++;
      series.sum += ms / 1_000;
    },
    petCreated: () => {
      petsCreated++;
    },
    refused: (reason) => {
      refusals[reason]++;
    },
    banned: () => {
      bans++;
    },
    families() {
      const requestSamples: Sample[] = [];
      for (const [operation, { requests }] of operations) {
        requests?.forEach((value, index) => {
          if (value === 0) return;
          const labels = formatLabels({
            operation,
            method: METHODS[Math.floor(index / STATUS_SLOTS)]!,
            status: String(index % STATUS_SLOTS),
          });
          requestSamples.push({ suffix: '', labels, value });
        });
      }
      return [
        {
          name: 'petstore_http_requests_total',
          help: 'HTTP requests answered, by operation, method and status code.',
          type: 'counter',
          samples: requestSamples,
        },
        {
          name: 'petstore_http_request_duration_seconds',
          help: 'Time from receiving a request to finishing its response, by operation.',
          type: 'histogram',
          samples: [...operations].flatMap(([operation, series]) =>
            histogramSamples(formatLabels({ operation }), DURATION_BUCKETS, series.counts, series.sum),
          ),
        },
        {
          name: 'petstore_rate_limit_refusals_total',
          help: 'Requests refused by the rate limiter, by reason.',
          type: 'counter',
          samples: Object.entries(refusals).map(([reason, value]) => ({
            suffix: '',
            labels: formatLabels({ reason }),
            value,
          })),
        },
        {
          name: 'petstore_bans_total',
          help: 'Temporary bans started by this process.',
          type: 'counter',
          samples: [{ suffix: '', labels: '', value: bans }],
        },
        {
          name: 'petstore_pets_created_total',
          help: 'Pets created (idempotent replays not counted).',
          type: 'counter',
          samples: [{ suffix: '', labels: '', value: petsCreated }],
        },
      ];
    },
  };
}
