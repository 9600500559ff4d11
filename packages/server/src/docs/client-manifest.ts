import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The typed client's package (packages/client), which the service serves as a tarball. */
export const CLIENT_DIR = path.join(import.meta.dirname, '../../../client');

/** Where `npm run build` (scripts/build-client.ts; `npm ci` runs it) writes the client's files. */
export const CLIENT_ASSETS_DIR = path.join(import.meta.dirname, '../../dist/docs');
export const CLIENT_ASSETS_MANIFEST = 'client-assets.json';
/** The browser module: `/docs/assets/petstore-client.js`. */
export const CLIENT_ENTRY = 'petstore-client.js';

export interface ClientAssetsManifest {
  /** Epoch ms at which the build started: an input changed after it makes the files stale. */
  builtAt: number;
  files: string[];
  /** The files they were built from, relative to the directory. */
  inputs: string[];
}

export interface Manifest {
  name: string;
  version: string;
  [field: string]: unknown;
}

let manifest: Manifest | undefined;
export const readManifest = (): Manifest =>
  (manifest ??= JSON.parse(readFileSync(path.join(CLIENT_DIR, 'package.json'), 'utf8')) as Manifest);

/** `@petstore/client` and the file name `npm pack` gives it: `petstore-client-1.0.0.tgz`. */
export function clientPackageName(): { name: string; file: string } {
  const { name, version } = readManifest();
  return { name, file: `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz` };
}
