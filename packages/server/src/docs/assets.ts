import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { clientModules } from './client-build.ts';
import { REFERENCE_ASSETS, referenceJson, siteReferenceJson } from './reference.ts';

/** A file of the documentation page, read once and compressed on its first compressed request. */
export interface DocsAsset {
  body: Buffer;
  /** The same body compressed, by content coding, when that is smaller. */
  readonly encoded: { br?: Buffer; gzip?: Buffer };
  contentType: string;
  /** Strong validator: a digest of the body. */
  etag: string;
  /** The Content-Security-Policy it is served with. */
  csp: string;
}

export const PUBLIC_DIR = path.join(import.meta.dirname, 'public');
/** The shared lossless JSON module, served to the page as it is imported on the server. */
const LOSSLESS_JSON = fileURLToPath(import.meta.resolve('@petstore/json'));
/** The search engine (MiniSearch's ES module, self-contained), served as the page's own file. */
const MINISEARCH = fileURLToPath(import.meta.resolve('minisearch'));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.tgz': 'application/gzip',
};

/**
 * Everything comes from the page's own origin, except the API calls of Try it and of the samples run
 * in the page, which may go to another origin (`apiOrigin`). No inline script or style; the
 * descriptions rendered on the server are the only HTML the page inserts, behind a Trusted Types policy.
 */
export function docsCsp(apiOrigin = ''): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${apiOrigin ? ` ${apiOrigin}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types petstore-markdown',
  ].join('; ');
}

/**
 * Brotli at quality 9 with a window fitted to the body: the defaults (quality 11, a 4 MiB window) took
 * 250 ms over every asset for about 9 % fewer bytes, mostly allocating the window anew for each file.
 */
const brotliOptions = (body: Buffer) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 9,
    [constants.BROTLI_PARAM_LGWIN]: Math.min(
      constants.BROTLI_MAX_WINDOW_BITS,
      Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(body.length + 1))),
    ),
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});

function compress(body: Buffer): DocsAsset['encoded'] {
  const br = brotliCompressSync(body, brotliOptions(body));
  const gzip = gzipSync(body, { level: 9 });
  return {
    br: br.length < body.length ? br : undefined,
    gzip: gzip.length < body.length ? gzip : undefined,
  };
}

/** An asset whose compressed forms are made on first use, then kept: start-up compresses nothing. */
export function asset(name: string, body: Buffer, csp = docsCsp()): DocsAsset {
  const contentType = CONTENT_TYPES[path.extname(name)];
  if (!contentType) throw new Error(`docs: no content type for ${name}`);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  let encoded: DocsAsset['encoded'] | undefined;
  return {
    body,
    get encoded() {
      encoded ??= compress(body);
      return encoded;
    },
    contentType,
    etag: `"${digest}"`,
    csp,
  };
}

const file = (name: string): DocsAsset => asset(name, readFileSync(path.join(PUBLIC_DIR, name)));

/** The page's modules, which the HTML preloads so they arrive in one round trip. */
export const PAGE_MODULES: readonly string[] = [
  ...readdirSync(PUBLIC_DIR).filter((name) => name.endsWith('.js')),
  'minisearch.js',
];

/** A module without its `sourceMappingURL` comment (its map is not served). */
const withoutSourceMap = (file: string) =>
  Buffer.from(readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));

const ASSET_SOURCES = new Map<string, () => DocsAsset>([
  ...readdirSync(PUBLIC_DIR)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => [name, () => file(name)] as const),
  ['lossless-json.js', () => asset('lossless-json.js', readFileSync(LOSSLESS_JSON))],
  ['minisearch.js', () => asset('minisearch.js', withoutSourceMap(MINISEARCH))],
  [REFERENCE_ASSETS.service, () => asset(REFERENCE_ASSETS.service, Buffer.from(referenceJson()))],
  [REFERENCE_ASSETS.site, () => asset(REFERENCE_ASSETS.site, Buffer.from(siteReferenceJson()))],
]);

const made = new Map<string, DocsAsset>();
let clientAssets: Map<string, DocsAsset> | undefined;

/**
 * The scripts, the style sheet, the reference data and the browser build of the typed client, by name
 * under /docs/assets/; each made on its first request and kept. The page itself (HTML) is made per
 * title and API origin by `docsPage`.
 */
export function docsAsset(name: string): DocsAsset | undefined {
  const source = ASSET_SOURCES.get(name);
  if (source) {
    let found = made.get(name);
    if (!found) made.set(name, (found = source()));
    return found;
  }
  if (!name.startsWith('petstore-client')) return undefined;
  clientAssets ??= new Map(clientModules().map(([module, body]) => [module, asset(module, body)]));
  return clientAssets.get(name);
}
