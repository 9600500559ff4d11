import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A file of the documentation page, read once at start-up. */
export interface DocsAsset {
  body: Buffer;
  contentType: string;
  /** Strong validator: a digest of the body. */
  etag: string;
}

const PUBLIC_DIR = path.join(import.meta.dirname, 'public');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function load(name: string): DocsAsset {
  const body = readFileSync(path.join(PUBLIC_DIR, name));
  const contentType = CONTENT_TYPES[path.extname(name)];
  if (!contentType) throw new Error(`docs: no content type for ${name}`);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { body, contentType, etag: `"${digest}"` };
}

/** The page served at /docs. */
export const DOCS_PAGE: DocsAsset = load('index.html');

/** The scripts and the style sheet it loads, by name under /docs/assets/. */
export const DOCS_ASSETS: ReadonlyMap<string, DocsAsset> = new Map(
  readdirSync(PUBLIC_DIR)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => [name, load(name)]),
);

/**
 * Everything comes from this origin; the API calls of Try it go to this origin too. No inline script or
 * style; the Markdown renderer is the only HTML sink, behind a Trusted Types policy.
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
