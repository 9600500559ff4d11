import cluster, { type Worker } from 'node:cluster';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { checkServingConfig, type Config } from './config.ts';
import { relayClusterMetrics } from './metrics/cluster-metrics.ts';
import { SHUTDOWN_TIMEOUT_MS } from './server.ts';
import { StorageUnavailableError } from './storage/errors.ts';
import { describeDatabase, openStorage } from './storage/open-storage.ts';

/** The environment variable through which the primary tells a worker its slot (1..N). */
export const WORKER_SLOT_ENV = 'PETSTORE_WORKER_SLOT';
/** Set for workers that must apply migrations themselves (the primary could not reach the database). */
export const WORKER_MIGRATE_ENV = 'PETSTORE_WORKER_MIGRATE';

export interface PrimaryOptions {
  /** First restart delay after an unexpected exit; doubles per consecutive early exit (default 500 ms). */
  restartDelayMs?: number;
  /** Longest restart delay (default 30 s). */
  maxRestartDelayMs?: number;
  /** A worker that ran at least this long restarts after the first delay again (default 30 s). */
  stableAfterMs?: number;
}

interface Slot {
  worker?: Worker;
  startedAt: number;
  /** Consecutive exits of workers that did not stay up for stableAfterMs. */
  earlyExits: number;
  restartTimer?: NodeJS.Timeout;
}

/**
 * The primary of `serve --workers N`: migrates once, forks N workers sharing the port, restarts a
 * worker that exits unexpectedly (with a growing delay, so a crashing worker does not spin), and on
 * SIGTERM/SIGINT asks every worker to drain and exits when all have, 0 if all shut down cleanly.
 */
export async function runPrimary(config: Config, options: PrimaryOptions = {}): Promise<void> {
  checkServingConfig(config);
  const restartDelayMs = options.restartDelayMs ?? 500;
  const maxRestartDelayMs = options.maxRestartDelayMs ?? 30_000;
  const stableAfterMs = options.stableAfterMs ?? 30_000;
  const log = pino({
    level: config.logLevel,
    base: { pid: process.pid, hostname: hostname(), role: 'primary' },
  });

  if (!config.redisUrl) {
    log.warn(
      { workers: config.workers },
      'REDIS_URL is not set: each worker counts rate limits and bans on its own, so a client may get up to ' +
        `${config.workers} times its limit; set REDIS_URL for exact limits shared by all workers`,
    );
  }
  const storage = await openStorage(config.databaseUrl);
  // Workers migrate only when this could not: each then keeps trying until the database is back.
  let workersMigrate = false;
  try {
    const applied = await storage.migrate();
    log.info({ database: describeDatabase(config.databaseUrl), applied }, 'migrations checked');
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    workersMigrate = true;
    log.warn(
      { cause: error.message },
      'database unavailable at start-up: the workers will migrate it once it is back',
    );
  } finally {
    await storage.close();
  }

  relayClusterMetrics(cluster);
  const slots = new Map<string, Slot>();
  const listening = new Set<string>();
  let started = false;
  let shuttingDown = false;
  let failed = false;

  const fork = (name: string) => {
    const slot = slots.get(name)!;
    slot.restartTimer = undefined;
    slot.startedAt = Date.now();
    const worker = cluster.fork({
      [WORKER_SLOT_ENV]: name,
      ...(workersMigrate ? { [WORKER_MIGRATE_ENV]: '1' } : {}),
    });
    slot.worker = worker;
    worker.on('listening', (address) => {
      log.info({ worker: name, workerPid: worker.process.pid }, 'worker listening');
      listening.add(name);
      if (!started && listening.size === slots.size) {
        started = true;
        const host = address.address ?? config.host;
        log.info({ url: `http://${host}:${address.port}`, workers: slots.size }, 'all workers listening');
      }
    });
    worker.on('exit', (code, signal) => onExit(name, code, signal));
    // A message to a worker that is just exiting fails; onExit deals with the exit itself.
    worker.on('error', (err) => log.warn({ err, worker: name }, 'worker channel error'));
  };

  const shutdown = (reason: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ reason }, 'shutting down: asking workers to finish their requests');
    setTimeout(() => {
      log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS + 5_000 }, 'workers did not exit in time: killing them');
      for (const { worker } of slots.values()) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS + 5_000).unref();
    for (const slot of slots.values()) {
      clearTimeout(slot.restartTimer);
      slot.restartTimer = undefined;
      if (slot.worker && !slot.worker.isDead()) slot.worker.process.kill('SIGTERM');
    }
    exitWhenDone();
  };

  const exitWhenDone = () => {
    if ([...slots.values()].some((slot) => slot.worker)) return;
    log.info({ exitCode: failed ? 1 : 0 }, 'all workers exited');
    process.exit(failed ? 1 : 0);
  };

  const onExit = (name: string, code: number | null, signal: string | null) => {
    const slot = slots.get(name)!;
    slot.worker = undefined;
    listening.delete(name);
    if (shuttingDown) {
      if (code !== 0) failed = true;
      log.info({ worker: name, code, signal }, 'worker exited');
      exitWhenDone();
      return;
    }
    if (!started) {
      log.fatal({ worker: name, code, signal }, 'a worker failed to start; stopping');
      failed = true;
      shutdown('start-up failure');
      return;
    }
    slot.earlyExits = Date.now() - slot.startedAt >= stableAfterMs ? 0 : slot.earlyExits + 1;
    const delayMs = Math.min(maxRestartDelayMs, restartDelayMs * 2 ** Math.max(0, slot.earlyExits - 1));
    log.error(
      { worker: name, code, signal, restartInMs: delayMs },
      'worker exited unexpectedly; restarting it',
    );
    slot.restartTimer = setTimeout(() => fork(name), delayMs);
  };

  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  for (let i = 1; i <= config.workers; i++) slots.set(String(i), { startedAt: 0, earlyExits: 0 });
  for (const name of slots.keys()) fork(name);
}
