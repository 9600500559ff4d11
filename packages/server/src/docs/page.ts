import { readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../dashboard/html.ts';
import { asset, type DocsAsset, docsCsp, PAGE_MODULES, PUBLIC_DIR } from './assets.ts';

export interface DocsPageOptions {
  /** The name the page carries: its `<title>`, its heading and its brand (a project's name). */
  title: string;
  /**
   * Where Try it and the code samples send requests: `''` for the page's own origin, else an origin
   * such as `https://api.petstore.example` (no path). A foreign origin is added to `connect-src`.
   */
  apiOrigin: string;
}

const TEMPLATE = readFileSync(path.join(PUBLIC_DIR, 'index.html'), 'utf8');
const PRELOADS = PAGE_MODULES.filter((name) => name !== 'app.js')
  .map((name) => `<link rel="modulepreload" href="/docs/assets/${name}" />`)
  .join('\n    ');

/** An origin as CSP and fetch need it: scheme, a plain host name or IP address, an optional port. */
const ORIGIN = /^https?:\/\/([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/** `''`, or an http(s) origin in its canonical form; anything else is a programming error. */
function checkOrigin(apiOrigin: string): string {
  if (apiOrigin === '') return '';
  const url = URL.canParse(apiOrigin) ? new URL(apiOrigin) : undefined;
  if (!url || url.origin !== apiOrigin || !ORIGIN.test(apiOrigin)) {
    throw new Error(
      `docsPage: apiOrigin must be '' or an origin like https://api.example.com, got ${JSON.stringify(apiOrigin)}`,
    );
  }
  return apiOrigin;
}

/** Pages already made, by title and origin; a handful in practice (one per project), bounded anyway. */
const made = new Map<string, DocsAsset>();
const MAX_MADE = 1_000;

/**
 * The docs page's HTML for one site: titled `title`, calling the API at `apiOrigin`, with its ETag and
 * its CSP. Its scripts, styles and data stay at /docs/assets/ (absolute paths), whatever the host.
 */
export function docsPage({ title, apiOrigin }: DocsPageOptions): DocsAsset {
  const key = `${title}\n${apiOrigin}`;
  const cached = made.get(key);
  if (cached) return cached;
  const origin = checkOrigin(apiOrigin);
  const html = TEMPLATE.replaceAll('{{title}}', escapeHtml(title))
    .replaceAll('{{apiOrigin}}', escapeHtml(origin))
    .replace('{{modulepreload}}', PRELOADS);
  const page = asset('index.html', Buffer.from(html), docsCsp(origin));
  if (made.size >= MAX_MADE) made.clear();
  made.set(key, page);
  return page;
}
