import type { ResolveHookSync } from 'node:module';

/** A resolve hook (module.registerHooks) joining the program's relative imports of its own modules. */
export const resolveSources: ResolveHookSync;
