import { readdirSync, readFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { createPetstoreClient } from '../../../client/src/index.ts';

/**
 * The typed client for browsers, served by the docs page so its TypeScript samples run in the page:
 * the client's own source with its types stripped (Node's built-in stripping; no build step), each
 * module under /docs/assets/ with its imports pointed at its neighbours and at the lossless JSON module
 * the page already loads.
 */
const CLIENT_SOURCE = path.join(import.meta.dirname, '../../../client/src');

/** The module to import: `/docs/assets/petstore-client.js`. */
export const CLIENT_ENTRY = 'petstore-client.js';

const assetName = (stem: string) => (stem === 'index' ? CLIENT_ENTRY : `petstore-client-${stem}.js`);

/**
 * `module.stripTypeScriptTypes` announces itself as experimental on every process's first call; that
 * warning would be the server's first line of output. It is silenced for this one synchronous call.
 */
function stripTypes(source: string): string {
  const { emitWarning } = process;
  process.emitWarning = () => undefined;
  try {
    return module.stripTypeScriptTypes(source);
  } finally {
    process.emitWarning = emitWarning;
  }
}

function browserModule(source: string): string {
  return stripTypes(source)
    .replace(
      /(from\s+)'\.\/([\w-]+)\.ts'/g,
      (_match, from: string, stem: string) => `${from}'./${assetName(stem)}'`,
    )
    .replaceAll("'@petstore/json'", "'./lossless-json.js'");
}

/** Every module of the client (tests excluded), by asset name, as browsers load it. */
export function clientModules(): [string, Buffer][] {
  return readdirSync(CLIENT_SOURCE)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => {
      const text = browserModule(readFileSync(path.join(CLIENT_SOURCE, file), 'utf8'));
      if (/from\s+'[^']*\.ts'/.test(text)) throw new Error(`docs: ${file} still imports TypeScript`);
      return [assetName(file.slice(0, -3)), Buffer.from(text)];
    });
}

/** The contract's operations the client has a method for (its methods are named by operationId). */
export const CLIENT_OPERATIONS: string[] = Object.keys(
  createPetstoreClient({ baseUrl: 'http://localhost/v1', apiKey: 'unused' }),
);
