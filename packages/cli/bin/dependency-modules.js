import { readFileSync, statSync } from 'node:fs';

/**
 * The dependency bundle's modules by import specifier (scripts/build-dependencies.ts, which `npm ci`
 * runs), while the bundle is as new as npm's record of node_modules; else undefined, and the packages
 * are imported from node_modules. One file read and one stat: the program's own modules are never
 * bundled, so no edit of them can make the bundle stale.
 */
export function dependencyModules(dirUrl) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('dependencies.json', dirUrl), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof manifest?.builtAt !== 'number' || typeof manifest.modules !== 'object') return undefined;
  const lockfile = statSync(new URL(manifest.lockfile, dirUrl), { throwIfNoEntry: false });
  if (lockfile === undefined || lockfile.mtimeMs > manifest.builtAt) return undefined;
  return new Map(
    Object.entries(manifest.modules).map(([specifier, file]) => [specifier, new URL(file, dirUrl).href]),
  );
}

/**
 * Resolves the bundled packages, as the program's own modules import them, to the bundle (the
 * packages' own imports, and whatever the bundle left in node_modules, resolve as usual).
 */
export function resolveToBundle(modules) {
  return (specifier, context, next) => {
    const url = modules.get(specifier);
    return url !== undefined && !context.parentURL?.includes('/node_modules/')
      ? { url, shortCircuit: true }
      : next(specifier, context);
  };
}
