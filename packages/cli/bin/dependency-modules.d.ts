import type { ResolveHookSync } from 'node:module';

/** The dependency bundle's modules by import specifier while it is current, else undefined. */
export function dependencyModules(dirUrl: URL): Map<string, string> | undefined;

/** A resolve hook (module.registerHooks) sending the program's imports of those packages to the bundle. */
export function resolveToBundle(modules: Map<string, string>): ResolveHookSync;
