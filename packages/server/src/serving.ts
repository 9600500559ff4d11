/**
 * What `petstore serve` needs, and nothing else: the package's main entry also exports the docs page
 * and the operator's helpers, whose imports a server process would otherwise load at start.
 */
export { closeOnSignals, startServer } from './server.ts';
export { runPrimary, WORKER_MIGRATE_ENV, WORKER_SLOT_ENV } from './cluster.ts';
