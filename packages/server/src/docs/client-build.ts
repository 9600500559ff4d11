import { createPetstoreClient } from '../../../client/src/index.ts';

/** The module to import: `/docs/assets/petstore-client.js`. */
export const CLIENT_ENTRY = 'petstore-client.js';

/** The one import left in the bundle: the lossless JSON module, which the page already loads as an asset. */
const LOSSLESS_JSON = { name: 'lossless-json', path: './lossless-json.js' };

async function build(): Promise<Buffer> {
  // Loaded on first use: a server whose docs page nobody opens never starts esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    // The client's TypeScript source, as its package exports it under the `@petstore/source` condition.
    stdin: { contents: "export * from '@petstore/client';", resolveDir: import.meta.dirname, loader: 'ts' },
    conditions: ['@petstore/source'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: LOSSLESS_JSON.name,
        setup(builder) {
          builder.onResolve({ filter: /^@petstore\/json$/ }, () => ({
            path: LOSSLESS_JSON.path,
            external: true,
          }));
        },
      },
    ],
  });
  return Buffer.from(result.outputFiles[0]!.contents);
}

let bundle: Promise<Buffer> | undefined;

/**
 * The typed client for browsers, so the docs page's TypeScript samples run in the page: one ES module
 * bundled by esbuild from the client's source on first request, then kept (a failed build is tried
 * again on the next request).
 */
export function clientBundle(): Promise<Buffer> {
  bundle ??= build().catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

/** The contract's operations the client has a method for (its methods are named by operationId). */
export const CLIENT_OPERATIONS: string[] = Object.keys(
  createPetstoreClient({ baseUrl: 'http://localhost/v1', apiKey: 'unused' }),
);
