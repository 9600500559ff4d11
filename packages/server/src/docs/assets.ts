import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { referenceJson } from './reference.ts';

/** A file of the documentation page, read and compressed once at start-up. */
export interface DocsAsset {
  body: Buffer;
  /** The same body compressed, by content coding, when that is smaller. */
  encoded: { br?: Buffer; gzip?: Buffer };
  contentType: string;
  /** Strong validator: a digest of the body. */
  etag: string;
}

const PUBLIC_DIR = path.join(import.meta.dirname, 'public');
/** The shared lossless JSON module, served to the page as it is imported on the server. */
const LOSSLESS_JSON = fileURLToPath(import.meta.resolve('@petstore/json'));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export function asset(name: string, body: Buffer): DocsAsset {
  const contentType = CONTENT_TYPES[path.extname(name)];
  if (!contentType) throw new Error(`docs: no content type for ${name}`);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const br = brotliCompressSync(body);
  const gzip = gzipSync(body, { level: 9 });
  return {
    body,
    encoded: {
      br: br.length < body.length ? br : undefined,
      gzip: gzip.length < body.length ? gzip : undefined,
    },
    contentType,
    etag: `"${digest}"`,
  };
}

const file = (name: string): DocsAsset => asset(name, readFileSync(path.join(PUBLIC_DIR, name)));

/** The page served at /docs. */
export const DOCS_PAGE: DocsAsset = file('index.html');

/** The scripts, the style sheet and the reference data the page loads, by name under /docs/assets/. */
export const DOCS_ASSETS: ReadonlyMap<string, DocsAsset> = new Map([
  ...readdirSync(PUBLIC_DIR)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => [name, file(name)] as const),
  ['lossless-json.js', asset('lossless-json.js', readFileSync(LOSSLESS_JSON))],
  ['reference.json', asset('reference.json', Buffer.from(referenceJson))],
]);

/**
 * Everything comes from this origin; the API calls of Try it go to this origin too. No inline script
 * or style; the descriptions rendered on the server are the only HTML the page inserts, behind a
 * Trusted Types policy.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types petstore-markdown',
].join('; ');
