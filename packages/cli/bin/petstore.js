#!/usr/bin/env -S node --max-semi-space-size=8
import module from 'node:module';
import { dependencyModules, resolveToBundle } from './dependency-modules.js';
import { resolveSources } from './source-modules.js';

// Caches V8's compiled code of every module on disk: a start reads it back instead of compiling.
module.enableCompileCache?.();
// The packages from their bundle (scripts/build-dependencies.ts) while it matches node_modules.
const modules = dependencyModules(new URL('../dist/', import.meta.url));
if (modules) module.registerHooks({ resolve: resolveToBundle(modules) });
// The program's own modules by their relative paths, without Node.js's lookups for each.
module.registerHooks({ resolve: resolveSources });
const { main } = await import('../src/main.ts');
const status = await main(process.argv.slice(2));
// serve keeps running until a signal; its shutdown decides the exit status. A serve that failed to
// start ends here: a cluster worker's channel to its primary would otherwise keep it alive.
if (process.argv[2] === 'serve' && status !== 0) process.exit(status);
if (process.argv[2] !== 'serve') process.exitCode = status;
