import type { AnsweredRequest } from '../http/answered.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Storage } from '../storage/repository.ts';
import { type Family, formatLabels } from './exposition.ts';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.ts';
import { createProcessMetrics } from './process-metrics.ts';

/** What the connection gate reports (http/connection-gate.ts). */
export interface ConnectionCounts {
  open(): number;
  /** Connections refused since start, by cause. */
  refused(): Record<string, number>;
}

/** What the request log's writer reports (features/requests/request-log-writer.ts). */
export interface RequestLogCounts {
  written: number;
  dropped: { bufferFull: number; writeFailed: number };
  buffered: number;
  /** The projects that lost the most rows to a full buffer (a bounded few, never every project). */
  droppedProjects: { name: string; count: number }[];
  /** Refusals (401, 403, 429) counted in another row instead of a row of their own. */
  coalesced: number;
}

/** The mail outbox's queue as its last poll read it: every instance's mails (one table). */
export interface OutboxCounts {
  queued: number;
  oldestQueuedAt: number | null;
  /** When it was read; null before the first poll. */
  readAt: number | null;
}

function outboxFamilies(stats: OutboxCounts): Family[] {
  const age =
    stats.oldestQueuedAt === null || stats.readAt === null ? 0 : stats.readAt - stats.oldestQueuedAt;
  return [
    {
      name: 'petstore_mail_outbox_queued',
      help: 'Mails queued in the outbox (waiting for their first attempt or another), all instances together.',
      type: 'gauge',
      samples: [{ suffix: '', labels: '', value: stats.queued }],
    },
    {
      name: 'petstore_mail_outbox_oldest_queued_age_seconds',
      help: 'How long the oldest queued mail has waited (0 when none waits).',
      type: 'gauge',
      samples: [{ suffix: '', labels: '', value: Math.max(0, age) / 1000 }],
    },
  ];
}

export interface MetricsDeps {
  storage: Pick<Storage, 'poolStats'>;
  limiter: Pick<RateLimiter, 'status'>;
}

export interface Metrics {
  readonly http: HttpMetrics;
  /** Called from the app's onResponse hook: counts the request under its route's label, with its duration. */
  observeResponse(answer: AnsweredRequest): void;
  /** Reports the server's open and refused connections from now on. */
  observeConnections(gate: ConnectionCounts): void;
  /** Reports the request log's writes and drops from now on. */
  observeRequestLog(stats: () => RequestLogCounts): void;
  /** Reports the host lookups that failed (features/domains/sites/host-directory.ts) from now on. */
  observeHostLookups(failures: () => number): void;
  /** Reports the mail outbox's queue as its last poll read it (mail/outbox.ts) from now on. */
  observeOutbox(stats: () => OutboxCounts): void;
  /** The limiter, counting the refusals and bans it decides. */
  instrumentLimiter(limiter: RateLimiter): RateLimiter;
  /** Everything this process knows, read now. */
  families(): Family[];
  close(): void;
}

function connectionFamilies(gate: ConnectionCounts): Family[] {
  return [
    {
      name: 'petstore_http_connections',
      help: 'HTTP connections open now.',
      type: 'gauge',
      samples: [{ suffix: '', labels: '', value: gate.open() }],
    },
    {
      name: 'petstore_http_connections_refused_total',
      help: 'Connections refused at once: over the total cap, or over the cap of their client address.',
      type: 'counter',
      samples: Object.entries(gate.refused()).map(([cause, value]) => ({
        suffix: '',
        labels: formatLabels({ cause }),
        value,
      })),
    },
  ];
}

function requestLogFamilies(stats: RequestLogCounts): Family[] {
  const counter = (name: string, help: string, value: number): Family => ({
    name,
    help,
    type: 'counter',
    samples: [{ suffix: '', labels: '', value }],
  });
  return [
    counter('petstore_request_log_written_total', 'Rows written to the request log.', stats.written),
    {
      name: 'petstore_request_log_dropped_total',
      help: 'Rows the request log lost: its buffer was full (buffer_full) or their batch failed (write_failed).',
      type: 'counter',
      samples: [
        { suffix: '', labels: formatLabels({ reason: 'buffer_full' }), value: stats.dropped.bufferFull },
        { suffix: '', labels: formatLabels({ reason: 'write_failed' }), value: stats.dropped.writeFailed },
      ],
    },
    {
      name: 'petstore_request_log_dropped_top_project_total',
      help: 'Rows lost to a full buffer by the projects that lost the most (at most 10 projects; the total is petstore_request_log_dropped_total).',
      type: 'counter',
      samples: stats.droppedProjects.map(({ name, count }) => ({
        suffix: '',
        labels: formatLabels({ project: name }),
        value: count,
      })),
    },
    counter(
      'petstore_request_log_coalesced_total',
      'Refusals (401, 403, 429) counted in the row of their project, second, status and code rather than written as rows of their own.',
      stats.coalesced,
    ),
    {
      name: 'petstore_request_log_buffered',
      help: 'Rows waiting to be written to the request log.',
      type: 'gauge',
      samples: [{ suffix: '', labels: '', value: stats.buffered }],
    },
  ];
}

export function createMetrics(deps: MetricsDeps): Metrics {
  const http = createHttpMetrics();
  const processMetrics = createProcessMetrics();
  let connections: ConnectionCounts | undefined;
  let requestLog: (() => RequestLogCounts) | undefined;
  let hostLookupFailures: (() => number) | undefined;
  let outbox: (() => OutboxCounts) | undefined;

  const dependencyFamilies = (): Family[] => {
    const families: Family[] = [
      {
        name: 'petstore_rate_limit_store_degraded',
        help: '1 while the rate-limit store does not answer and the in-process fallback limits instead, else 0.',
        type: 'gauge',
        samples: [{ suffix: '', labels: '', value: deps.limiter.status().degraded ? 1 : 0 }],
      },
    ];
    if (connections) families.push(...connectionFamilies(connections));
    if (requestLog) families.push(...requestLogFamilies(requestLog()));
    if (outbox) families.push(...outboxFamilies(outbox()));
    if (hostLookupFailures) {
      families.push({
        name: 'petstore_host_lookup_failures_total',
        help: 'Lookups of what a host serves that failed (the request was answered 503, never routed nowhere).',
        type: 'counter',
        samples: [{ suffix: '', labels: '', value: hostLookupFailures() }],
      });
    }
    const pool = deps.storage.poolStats?.();
    if (pool) {
      families.push({
        name: 'petstore_db_pool_connections',
        help: 'PostgreSQL pool: connections open (total), of which idle, and queries waiting for one (waiting).',
        type: 'gauge',
        samples: (['total', 'idle', 'waiting'] as const).map((state) => ({
          suffix: '',
          labels: formatLabels({ state }),
          value: pool[state],
        })),
      });
    }
    return families;
  };

  return {
    http,
    observeResponse(answer) {
      http.observe(answer.config.metricsLabel, answer.method, answer.status, answer.ms);
    },
    observeConnections(gate) {
      connections = gate;
    },
    observeRequestLog(stats) {
      requestLog = stats;
    },
    observeHostLookups(failures) {
      hostLookupFailures = failures;
    },
    observeOutbox(stats) {
      outbox = stats;
    },
    instrumentLimiter(limiter) {
      return {
        async check(subject) {
          const decision = await limiter.check(subject);
          if (!decision.allowed) http.refused(decision.reason ?? 'rate_limited');
          if (decision.bannedNow) http.banned();
          return decision;
        },
        usage: (subject) => limiter.usage(subject),
        unban: (bucket, group) => limiter.unban(bucket, group),
        status: () => limiter.status(),
        close: () => limiter.close(),
      };
    },
    families: () => [...http.families(), ...dependencyFamilies(), ...processMetrics.families()],
    close: () => processMetrics.close(),
  };
}
