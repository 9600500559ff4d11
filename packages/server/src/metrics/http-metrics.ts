import { type Family, formatLabels, histogramSamples, type Sample } from './exposition.ts';

export const OPERATIONS = ['listPets', 'createPet', 'getPet', 'listStoreOrders', 'other'] as const;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'] as const;
const OTHER_METHOD = METHODS.length - 1;
/** HTTP status codes are 100..599; one slot per code keeps the request counter a plain array. */
const STATUS_SLOTS = 600;

/** Request durations in seconds: fine below 10 ms, where this API answers, up to 2.5 s. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const BUCKETS_MS = DURATION_BUCKETS.map((seconds) => seconds * 1_000);

export type RefusalReason = 'rate_limited' | 'temporarily_banned';

/** The operation behind a matched route pattern (`request.routeOptions.url`), as an index into OPERATIONS. */
export function operationIndex(route: string | undefined, method: string): number {
  switch (route) {
    case '/v1/pets':
      return method === 'POST' ? 1 : 0;
    case '/v1/pets/:petId':
      return 2;
    case '/v1/store/orders':
      return 3;
    default:
      return 4;
  }
}

function methodIndex(method: string): number {
  for (let i = 0; i < OTHER_METHOD; i++) if (METHODS[i] === method) return i;
  return OTHER_METHOD;
}

export interface HttpMetrics {
  /** One answered request; `ms` is how long it took. Allocation-free. */
  observe(route: string | undefined, method: string, status: number, ms: number): void;
  petCreated(): void;
  refused(reason: RefusalReason): void;
  banned(): void;
  families(): Family[];
}

/**
 * Counters kept as plain numbers: requests in one array indexed by operation, method and status (zeros
 * are not reported), durations in one bucket array per operation (linear scan).
 */
export function createHttpMetrics(): HttpMetrics {
  const requests = new Float64Array(OPERATIONS.length * METHODS.length * STATUS_SLOTS);
  const durations = OPERATIONS.map(() => ({ counts: new Float64Array(BUCKETS_MS.length + 1), sum: 0 }));
  const refusals = { rate_limited: 0, temporarily_banned: 0 };
  let bans = 0;
  let petsCreated = 0;

  return {
    observe(route, method, status, ms) {
      const operation = operationIndex(route, method);
      requests[
        (operation * METHODS.length + methodIndex(method)) * STATUS_SLOTS + (status % STATUS_SLOTS)
      ]!++;
      const histogram = durations[operation]!;
      let bucket = 0;
      while (bucket < BUCKETS_MS.length && ms > BUCKETS_MS[bucket]!) bucket++;
      histogram.counts[bucket]!++;
      histogram.sum += ms / 1_000;
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
      requests.forEach((value, index) => {
        if (value === 0) return;
        const combined = Math.floor(index / STATUS_SLOTS);
        const labels = formatLabels({
          operation: OPERATIONS[Math.floor(combined / METHODS.length)]!,
          method: METHODS[combined % METHODS.length]!,
          status: String(index % STATUS_SLOTS),
        });
        requestSamples.push({ suffix: '', labels, value });
      });
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
          samples: OPERATIONS.flatMap((operation, i) =>
            histogramSamples(
              formatLabels({ operation }),
              DURATION_BUCKETS,
              durations[i]!.counts,
              durations[i]!.sum,
            ),
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
