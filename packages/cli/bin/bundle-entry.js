import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The bundle's entry (from `npm run build`, which `npm ci` runs) when it is as new as every file it was
 * built from, else undefined: the sources run instead. A bundle that is missing, unreadable or older
 * than an edit is never run.
 */
export function freshBundleEntry(dirUrl) {
  const dir = fileURLToPath(dirUrl);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(resolve(dir, 'bundle.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof manifest?.builtAt !== 'number' || !Array.isArray(manifest.inputs)) return undefined;
  for (const input of manifest.inputs) {
    const stat = statSync(resolve(dir, input), { throwIfNoEntry: false });
    if (stat === undefined || stat.mtimeMs > manifest.builtAt) return undefined;
  }
  return pathToFileURL(resolve(dir, manifest.entry)).href;
}
