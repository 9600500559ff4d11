import cluster from 'node:cluster';
import { closeOnSignals, startServer } from '@petstore/server/server.ts';
import { commandConfig } from './database.ts';
import type { CliIo } from './io.ts';
import { parseCommand } from './usage.ts';

const HELP = `petstore serve [--port N] [--host H] [--database URL] [--redis URL] [--workers N]

Serves the Pet Store API. Flags win over the environment.
--port N         TCP port (PORT, default 8080)
--host H         address to bind (HOST, default 127.0.0.1; 0.0.0.0 in containers)
--database URL   postgres://… or a SQLite file path (DATABASE_URL, default ./data/petstore.db)
--redis URL      redis://… for rate-limit state shared by instances (REDIS_URL; default in-process)
--workers N      processes on this machine sharing the port (PETSTORE_WORKERS, default 1); without
                 REDIS_URL each worker counts rate limits on its own`;

export async function runServe(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    io,
    'serve',
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      database: { type: 'string' },
      redis: { type: 'string' },
      workers: { type: 'string' },
    },
    HELP,
  );
  if (!parsed) return 0;
  const { port, host, database, redis, workers } = parsed.values as Record<string, string | undefined>;
  const config = commandConfig(io, { port, host, database, redis, workers });
  // The cluster's primary and workers only: one process imports none of it.
  const clustered =
    cluster.isWorker || config.workers > 1 ? await import('@petstore/server/cluster.ts') : undefined;
  if (clustered && cluster.isPrimary) {
    await clustered.runPrimary(config);
    return 0;
  }
  const server = startServer(
    config,
    clustered
      ? {
          migrate: io.env[clustered.WORKER_MIGRATE_ENV] === '1',
          workerSlot: io.env[clustered.WORKER_SLOT_ENV],
        }
      : {},
  );
  // Before the port is bound: a signal with no handler yet would end the process without a shutdown.
  closeOnSignals(server);
  await server;
  return 0;
}
