import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StaticAsset, staticAsset } from '../web/static-asset.ts';
import { manageReferenceJson, REFERENCE_ASSETS, referenceJson, siteReferenceJson } from './reference.ts';

export const PUBLIC_DIR = path.join(import.meta.dirname, 'public');
/** The shared lossless JSON module, served to the page as it is imported on the server. */
const LOSSLESS_JSON = fileURLToPath(import.meta.resolve('@petstore/json'));
/** The search engine (MiniSearch's ES module, self-contained), served as the page's own file. */
const MINISEARCH = fileURLToPath(import.meta.resolve('minisearch'));

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

/** A file of the docs page, served with the page's CSP unless it names another. */
export const asset = (name: string, body: Buffer, csp = docsCsp()): StaticAsset =>
  staticAsset(name, body, csp);

const file = (name: string): StaticAsset => asset(name, readFileSync(path.join(PUBLIC_DIR, name)));

/** The page's modules, which the HTML preloads so they arrive in one round trip. */
export const PAGE_MODULES: readonly string[] = [
  ...readdirSync(PUBLIC_DIR).filter((name) => name.endsWith('.js')),
  'minisearch.js',
];

/** A module without its `sourceMappingURL` comment (its map is not served). */
const withoutSourceMap = (file: string) =>
  Buffer.from(readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));

const ASSET_SOURCES = new Map<string, () => StaticAsset>([
  ...readdirSync(PUBLIC_DIR)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => [name, () => file(name)] as const),
  ['lossless-json.js', () => asset('lossless-json.js', readFileSync(LOSSLESS_JSON))],
  ['minisearch.js', () => asset('minisearch.js', withoutSourceMap(MINISEARCH))],
  [REFERENCE_ASSETS.service, () => asset(REFERENCE_ASSETS.service, Buffer.from(referenceJson()))],
  [REFERENCE_ASSETS.site, () => asset(REFERENCE_ASSETS.site, Buffer.from(siteReferenceJson()))],
  [REFERENCE_ASSETS.manage, () => asset(REFERENCE_ASSETS.manage, Buffer.from(manageReferenceJson()))],
]);

const made = new Map<string, StaticAsset>();

/**
 * The scripts, the style sheet and the reference data, by name under /docs/assets/; each made on its
 * first request and kept. The page itself (HTML) is made per title and API origin by `docsPage`; the
 * typed client's files are built ahead (`clientAsset`).
 */
export async function docsAsset(name: string): Promise<StaticAsset | undefined> {
  const source = ASSET_SOURCES.get(name);
  if (!source) return undefined;
  let found = made.get(name);
  if (!found) made.set(name, (found = source()));
  return found;
}
