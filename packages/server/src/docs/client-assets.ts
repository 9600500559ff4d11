import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StaticAsset } from '../web/static-asset.ts';
import { asset } from './assets.ts';
import {
  CLIENT_ASSETS_DIR,
  CLIENT_ASSETS_MANIFEST,
  CLIENT_ENTRY,
  type ClientAssetsManifest,
  clientPackageName,
} from './client-manifest.ts';

/** The client's files by name, or why they cannot be served (missing or older than their sources). */
export type ClientAssets = { assets: ReadonlyMap<string, StaticAsset> } | { unavailable: string };

const REBUILD = 'run `npm run build`';
/** Paths in messages are the repository's, never the host's. */
const ROOT = path.join(import.meta.dirname, '../../../..');
const shown = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * Reads the built files once: the server compiles nothing. They are refused when the build is
 * missing or older than a file it was built from (an edit since), so a stale client is never served.
 */
export function readClientAssets(dir = CLIENT_ASSETS_DIR): ClientAssets {
  const names = [CLIENT_ENTRY, clientPackageName().file];
  let manifest: ClientAssetsManifest;
  try {
    manifest = JSON.parse(
      readFileSync(path.join(dir, CLIENT_ASSETS_MANIFEST), 'utf8'),
    ) as ClientAssetsManifest;
  } catch {
    const missing = shown(path.join(dir, CLIENT_ASSETS_MANIFEST));
    return { unavailable: `the typed client is not built (${missing} is missing): ${REBUILD}` };
  }
  for (const input of manifest.inputs ?? []) {
    const stat = statSync(path.join(dir, input), { throwIfNoEntry: false });
    if (stat === undefined || stat.mtimeMs > manifest.builtAt) {
      return {
        unavailable: `the typed client's build is older than ${shown(path.join(dir, input))}: ${REBUILD}`,
      };
    }
  }
  const assets = new Map<string, StaticAsset>();
  for (const name of names) {
    if (!manifest.files?.includes(name)) {
      return { unavailable: `the typed client's build has no ${name}: ${REBUILD}` };
    }
    assets.set(name, asset(name, readFileSync(path.join(dir, name))));
  }
  return { assets };
}

let read: ClientAssets | undefined;

/**
 * `/docs/assets/<name>` when it is one of the client's files (else undefined): read at the first
 * request and kept; while unavailable, read again at each request, so a build needs no restart.
 */
export function clientAsset(name: string): ClientAssets | undefined {
  if (name !== CLIENT_ENTRY && name !== clientPackageName().file) return undefined;
  if (read === undefined || 'unavailable' in read) read = readClientAssets();
  return read;
}
