export { buildApp, type AppDeps } from './app.ts';
export { ConfigError, loadConfig, keyEnvironmentOf, type Config, type ConfigFlags } from './config.ts';
export { closeOnSignals, startServer, type RunningServer, type StartOptions } from './server.ts';
export { runPrimary, WORKER_MIGRATE_ENV, WORKER_SLOT_ENV, type PrimaryOptions } from './cluster.ts';
export { openStorage, describeDatabase } from './storage/open-storage.ts';
export { generateKey } from './auth/keys.ts';
export { PLANS, type ApiKeyRecord, type Plan, type Storage } from './storage/repository.ts';
export { systemClock, FakeClock, type Clock } from './time/clock.ts';
