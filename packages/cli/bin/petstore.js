#!/usr/bin/env -S node --max-semi-space-size=8
import module from 'node:module';
import { freshBundleEntry } from './bundle-entry.js';

// Caches compiled (and type-stripped) modules on disk: start-up goes from about 1 s to about 0.5 s.
module.enableCompileCache?.();
// The bundle (scripts/build.ts) while it matches the sources, else the sources themselves.
const entry = freshBundleEntry(new URL('../dist/', import.meta.url)) ?? '../src/main.ts';
const { main } = await import(entry);
const status = await main(process.argv.slice(2));
// serve keeps running until a signal; its shutdown decides the exit status. A serve that failed to
// start ends here: a cluster worker's channel to its primary would otherwise keep it alive.
if (process.argv[2] === 'serve' && status !== 0) process.exit(status);
if (process.argv[2] !== 'serve') process.exitCode = status;
