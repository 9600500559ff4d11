import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, keyEnvironmentOf } from './config.ts';
import { createLimiterFromConfig } from './ratelimit/from-config.ts';
import { describeDatabase, openStorage } from './storage/open-storage.ts';
import { systemClock } from './time/clock.ts';

const PURGE_INTERVAL_MS = 60 * 60_000;

export interface RunningServer {
  app: FastifyInstance;
  /** The address actually bound (the port is known even when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

/** Config → dependencies → app → listen. Migrations run first, so a fresh database just works. */
export async function startServer(config: Config): Promise<RunningServer> {
  const clock = systemClock;
  const logger = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  };
  const storage = await openStorage(config.databaseUrl);
  await storage.migrate();
  const limiter = createLimiterFromConfig(config, clock);
  const app = buildApp({
    storage,
    limiter: limiter.limiter,
    clock,
    keyEnvironment: keyEnvironmentOf(config.environment),
    logger,
    trustProxy: config.trustProxy,
  });
  limiter.attachLogger(app.log);

  const purge = async () => {
    try {
      const removed = await storage.purgeIdempotency(clock.now());
      if (removed > 0) app.log.info({ removed }, 'expired idempotency records purged');
    } catch (error) {
      app.log.warn({ err: error }, 'idempotency purge failed');
    }
  };
  await purge();
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS).unref();

  const url = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      url,
      database: describeDatabase(config.databaseUrl),
      rateLimitStore: limiter.limiter.status().store,
      environment: config.environment,
    },
    'petstore listening',
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(purgeTimer);
      await app.close();
      await limiter.limiter.close();
      await storage.close();
    })();
    return closing;
  };
  return { app, url, close };
}

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the database, exit. */
export function closeOnSignals(server: RunningServer): void {
  const stop = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
