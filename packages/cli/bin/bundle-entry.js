import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The bundle's entry (from `npm run build`, which `npm ci` runs) when it is as new as every file it was
 * built from, else undefined: the sources run instead. A bundle that is missing, unreadable or older
 * than an edit is never run.
 */
export function freshBundleEntry(dirUrl) {
  // Paths joined as strings (the kernel resolves `..`): path.resolve per input tripled the check's time.
  const dir = fileURLToPath(new URL('./', dirUrl));
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(`${dir}bundle.json`, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof manifest?.builtAt !== 'number' || !Array.isArray(manifest.inputs)) return undefined;
  for (const input of manifest.inputs) {
    const stat = statSync(dir + input, { throwIfNoEntry: false });
    if (stat === undefined || stat.mtimeMs > manifest.builtAt) return undefined;
  }
  return new URL(manifest.entry, dirUrl).href;
}
