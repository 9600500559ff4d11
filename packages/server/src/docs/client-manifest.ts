import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The typed client's package (packages/client), which the service serves as a tarball. */
export const CLIENT_DIR = path.join(import.meta.dirname, '../../../client');

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
