import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './app.ts';
import {
  checkServingConfig,
  type Config,
  configuredOrigin,
  keyEnvironmentOf,
  publicOrigin,
} from './config.ts';
import { mailerFromConfig } from './mail/from-config.ts';
import { corsPolicy } from './http/cors.ts';
import { workerMetrics } from './metrics/cluster-metrics.ts';
import { createMetrics } from './metrics/metrics.ts';
import { createLimiterFromConfig } from './ratelimit/from-config.ts';
import { createExportSlotsFromConfig } from './features/requests/export-slots-from-config.ts';
import { StorageUnavailableError } from './storage/errors.ts';
import { describeDatabase } from './storage/open-storage.ts';
import { domainChecks } from './features/domains/background-checks.ts';
import { maintenanceJobs } from './maintenance/jobs.ts';
import { createLease } from './maintenance/lease.ts';
import { LEASE_TTL_MS, type Maintenance, startMaintenance } from './maintenance/scheduler.ts';
import { createDnsResolver } from './features/domains/dns.ts';
import { openStoreAt, type Store } from './features/store.ts';
import { untilReady } from './storage/until-ready.ts';
import { systemClock } from './time/clock.ts';
import { type InternalListener, listenInternal } from './http/internal-listener.ts';

/** A graceful shutdown taking longer than this is abandoned and the process exits with status 1. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;
/** While closing, connections that finished their last response are closed this often. */
const IDLE_REAP_INTERVAL_MS = 100;
/**
 * Log lines are written in batches of at least this many bytes, and at least this often. Kept well
 * under PIPE_BUF (4096) so that a batch, which may overshoot by one line, still reaches a pipe shared
 * by several workers in one atomic write.
 */
const LOG_BUFFER_BYTES = 2048;
const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * A write to standard output per log line costs as much as answering the request; buffering lines
 * into larger writes removes most of that. At most LOG_FLUSH_INTERVAL_MS of lines wait, and everything
 * is flushed synchronously, and synced to its file, on shutdown and at exit. The writes themselves are
 * synchronous (pino's default): an asynchronous write goes through the libuv thread pool and wakes the
 * event loop again on completion, which measured about 7 % more CPU per request than a 2 KiB write(2)
 * in place.
 */
function bufferedStdout() {
  const destination = pino.destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES });
  const timer = setInterval(() => destination.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  const flushAndSync = () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing more can be done about a log that cannot be written at exit.
    }
  };
  process.once('exit', flushAndSync);
  return {
    destination,
    /**
     * Writes the waiting lines now, without an fsync: a line is readable once written, and a start
     * that synced its log to a file held its first requests for as long as the disk took (150 ms on a
     * busy machine).
     */
    writeNow: () => destination.flush(),
    close() {
      clearInterval(timer);
      flushAndSync();
    },
  };
}

/** Files kept for the database, logs and outbound connections, besides one per client connection. */
const RESERVED_FILES = 256;

/** The soft limit on open files (Linux /proc), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connections beyond what the process can open would fail at accept (EMFILE) and starve the database
 * and logs of files too: the cap is lowered to the file limit less a reserve.
 */
function connectionsWithinFileLimit(wanted: number): { allowed: number; fileLimit: number | undefined } {
  const fileLimit = openFileLimit();
  if (fileLimit === undefined) return { allowed: wanted, fileLimit };
  return { allowed: Math.max(1, Math.min(wanted, fileLimit - RESERVED_FILES)), fileLimit };
}

/** How often migrations are tried again when the database could not take them at start-up. */
export const MIGRATION_RETRY_MS = 2_000;

/**
 * The database could not be opened or migrated at start-up (unreachable, read-only, full): the server
 * listens anyway, answering 503 and /readyz 503, and tries again until it succeeds. A fixed cause (a
 * permission restored, space freed, PostgreSQL started) needs no restart.
 */
function retryMigrations(
  storage: Store,
  log: FastifyBaseLogger,
  first: StorageUnavailableError,
  done: () => void,
): { stop(): void } {
  log.warn(
    { cause: first.message, retryMs: MIGRATION_RETRY_MS },
    'database unavailable at start-up: serving 503 and trying again',
  );
  let timer: NodeJS.Timeout | undefined;
  const attempt = async () => {
    try {
      const applied = await storage.migrate();
      done();
      log.info({ applied }, 'database ready: migrations applied');
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) {
        log.error({ err: error }, 'migrations failed: the database stays unavailable');
        return;
      }
      timer = setTimeout(attempt, MIGRATION_RETRY_MS).unref();
    }
  };
  timer = setTimeout(attempt, MIGRATION_RETRY_MS).unref();
  return { stop: () => clearTimeout(timer) };
}

export interface RunningServer {
  app: FastifyInstance;
  /** The address actually bound (the port is known even when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Apply pending migrations before listening (default true; a cluster's primary does it for its workers). */
  migrate?: boolean;
  /** Set in a cluster worker: its slot, logged on every line and labelling its metrics. */
  workerSlot?: string;
}

/** Config → dependencies → app → listen. Migrations run first, so a fresh database just works. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  checkServingConfig(config);
  const clock = systemClock;
  const { workerSlot } = options;
  const log = bufferedStdout();
  const logger = {
    level: config.logLevel,
    stream: log.destination,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
    ...(workerSlot === undefined
      ? {}
      : { base: { pid: process.pid, hostname: hostname(), worker: workerSlot } }),
  };
  const storage = await openStoreAt(config.databaseUrl);
  let migrated = !(options.migrate ?? true);
  let notMigrated: StorageUnavailableError | undefined;
  if (!migrated) {
    try {
      await storage.migrate();
      migrated = true;
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
      notMigrated = error;
    }
  }
  const limiter = await createLimiterFromConfig(config, clock);
  const exportSlots = await createExportSlotsFromConfig(config, clock, limiter.redis);
  const metrics = createMetrics({ storage, limiter: limiter.limiter });
  const connectionCap = connectionsWithinFileLimit(config.http.maxConnections);
  const cluster = workerSlot === undefined ? undefined : workerMetrics(workerSlot, metrics.families);
  const mailer = await mailerFromConfig(config.mail);
  // Links in mails start with the public origin, which needs the port this server listens on (below).
  let links = configuredOrigin(config);
  const app = buildApp({
    storage: migrated ? storage : untilReady(storage, () => migrated),
    limiter: limiter.limiter,
    clock,
    keyEnvironment: keyEnvironmentOf(config.environment),
    logger,
    trustProxy: config.trustProxy,
    metrics,
    gatherMetrics: cluster?.gather,
    warmPetCache: true,
    hosts: { siteDomain: config.siteDomain, apiHost: config.apiHost },
    publicBaseUrl: config.publicBaseUrl,
    dns: createDnsResolver(config.dnsServers),
    caIdentity: config.caIdentity,
    twoFactorKey: config.twoFactorKey,
    enterpriseDomains: config.enterpriseDomains,
    tlsProbe: config.tlsProbe,
    cors: corsPolicy(config.corsOrigins),
    httpLimits: { ...config.http, maxConnections: connectionCap.allowed },
    minFreeDiskBytes: config.minFreeDiskBytes,
    requestLog: config.requestLog ? {} : false,
    logSample: config.logSample,
    changePollMs: config.changePollMs,
    mailer,
    mailFrom: config.mail.from,
    linkOrigin: () => links,
    exportSlots: exportSlots.slots,
  });
  limiter.attachLogger(app.log);
  exportSlots.attachLogger(app.log);
  storage.attachLogger?.(app.log);
  // Loads the areas' plugins (the API's dispatch is a decoration of its own).
  await app.ready();
  if (connectionCap.allowed < config.http.maxConnections) {
    app.log.warn(
      { maxConnections: connectionCap.allowed, openFileLimit: connectionCap.fileLimit },
      `PETSTORE_MAX_CONNECTIONS lowered to ${connectionCap.allowed}: this process may open only ${connectionCap.fileLimit} files; raise its limit (ulimit -n) to allow more`,
    );
  }

  const migrations = notMigrated
    ? retryMigrations(storage, app.log, notMigrated, () => {
        migrated = true;
      })
    : undefined;
  const domains = domainChecks(app.domains, app.log);
  await domains.ready;
  let maintenance: Maintenance | undefined;

  let internal: InternalListener | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      migrations?.stop();
      await maintenance?.stop();
      await internal?.close();
      // Keep-alive connections would hold the close open until they time out: close each one as
      // soon as its in-flight request has been answered.
      const reaper = setInterval(() => app.server.closeIdleConnections(), IDLE_REAP_INTERVAL_MS);
      try {
        await app.close();
      } finally {
        clearInterval(reaper);
      }
      cluster?.close();
      // The slots give their leases back on the limiter's Redis client: closed before it.
      await exportSlots.close();
      await limiter.close();
      await storage.close();
      log.close();
    })();
    return closing;
  };

  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
    links = publicOrigin(config, (app.server.address() as AddressInfo).port);
    internal = config.internal && (await listenInternal(app, config.internal));
    // After listen, never a start-up step: one instance at a time runs it, in slices.
    maintenance = startMaintenance(maintenanceJobs(storage, domains.round), {
      lease: createLease({
        sql: storage.sql,
        clock,
        name: 'maintenance',
        owner: `${hostname()}:${process.pid}:${randomUUID()}`,
        ttlMs: LEASE_TTL_MS,
      }),
      clock,
      log: app.log,
    });
  } catch (error) {
    // Nothing may keep the process alive after a failed start (a port taken): it must exit.
    await close();
    throw error;
  }
  app.log.info(
    {
      url,
      internalUrl: internal?.url,
      database: describeDatabase(config.databaseUrl),
      rateLimitStore: limiter.limiter.status().store,
      environment: config.environment,
      mail: app.outbox.describe,
    },
    'petstore listening',
  );
  if (config.mail.smtp) {
    app.log.info(
      {
        event: 'mail.ready',
        via: app.outbox.describe,
        from: config.mail.from,
        links,
      },
      `mail is sent through ${app.outbox.describe} as ${config.mail.from}`,
    );
  } else {
    app.log[config.environment === 'production' ? 'warn' : 'info'](
      { event: 'mail.ready', via: 'log', links },
      'no PETSTORE_SMTP_URL: mails (invitations, password resets) are written to this log as JSON lines ("event":"mail.outbox"), with their single-use links',
    );
  }
  log.writeNow();
  return { app, url, close };
}

/**
 * SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the database, exit 0. A signal
 * repeated meanwhile (a terminal's Ctrl-C reaching a cluster's workers and their primary) changes
 * nothing; a shutdown still running after SHUTDOWN_TIMEOUT_MS exits 1. Call it with the server still
 * starting: a signal that arrives before the handlers exist kills the process at once, so they are
 * installed before the port is bound, and a signal during start-up stops the server once it runs.
 */
export function closeOnSignals(
  server: RunningServer | Promise<RunningServer>,
  timeoutMs = SHUTDOWN_TIMEOUT_MS,
): void {
  let stopping = false;
  let started: RunningServer | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      if (started) started.app.log.error({ timeoutMs }, 'shutdown did not finish in time: exiting');
      else process.stderr.write(`petstore: start-up and shutdown took over ${timeoutMs} ms: exiting\n`);
      process.exit(1);
    }, timeoutMs).unref();
    Promise.resolve(server).then(
      async (running) => {
        started = running;
        running.app.log.info({ signal }, 'shutting down');
        try {
          await running.close();
          running.app.log.info('shut down');
          process.exit(0);
        } catch (error) {
          running.app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        }
      },
      // A start that failed is reported, and ends the process, where it was awaited.
      () => {},
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
