import { readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml, Html } from '../web/html.ts';
import type { StaticAsset } from '../web/static-asset.ts';
import { asset, docsCsp, PAGE_MODULES, PUBLIC_DIR } from './assets.ts';
import { REFERENCE_ASSETS } from './reference.ts';

export interface DocsPageOptions {
  /** The name the page carries: its `<title>`, its heading and its brand (a project's name). */
  title: string;
  /**
   * Where Try it and the code samples send requests: `''` for the page's own origin, else an origin
   * such as `https://api.petstore.example` (no path). A foreign origin is added to `connect-src`.
   */
  apiOrigin: string;
  /**
   * Which reference the page shows: `service` (default), everything the service answers, as `/docs`
   * shows it; `site`, a project's published docs: the operations its readers call with their keys only.
   */
  edition?: keyof typeof REFERENCE_ASSETS;
}

/** A piece of the page's template: text as it is, or the name of a value put in its place. */
type Part = { text: string } | { name: string };

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/**
 * The template cut once at its placeholders. A page is its parts joined with each value in its place,
 * in one pass: no value is ever scanned for placeholders again, whatever it contains.
 */
function parse(template: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push({ text: template.slice(at, match.index) }, { name: match[1]! });
    at = match.index + match[0].length;
  }
  parts.push({ text: template.slice(at) });
  return parts;
}

let template: Part[] | undefined;

/**
 * Each value is text, escaped for HTML (every placeholder stands in element text or a double-quoted
 * attribute, where the same escaping is right), or markup the server made itself (`Html`).
 */
function fill(values: Record<string, string | Html>): string {
  template ??= parse(readFileSync(path.join(PUBLIC_DIR, 'index.html'), 'utf8'));
  return template
    .map((part) => {
      if ('text' in part) return part.text;
      const value = values[part.name];
      if (value === undefined) throw new Error(`docsPage: no value for {{${part.name}}}`);
      return value instanceof Html ? value.value : escapeHtml(value);
    })
    .join('');
}

const preloads = () =>
  new Html(
    PAGE_MODULES.filter((name) => name !== 'app.js')
      .map((name) => `<link rel="modulepreload" href="/docs/assets/${name}" />`)
      .join('\n    '),
  );

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

/** Pages already made, by title, origin and edition; a handful in practice (one per project), bounded anyway. */
const made = new Map<string, StaticAsset>();
const MAX_MADE = 1_000;

/**
 * The docs page's HTML for one site: titled `title`, calling the API at `apiOrigin`, with its ETag and
 * its CSP. Its scripts, styles and data stay at /docs/assets/ (absolute paths), whatever the host.
 */
export function docsPage({ title, apiOrigin, edition = 'service' }: DocsPageOptions): StaticAsset {
  const key = JSON.stringify([title, apiOrigin, edition]);
  const cached = made.get(key);
  if (cached) return cached;
  const origin = checkOrigin(apiOrigin);
  const html = fill({
    title,
    apiOrigin: origin,
    reference: `/docs/assets/${REFERENCE_ASSETS[edition]}`,
    modulepreload: preloads(),
  });
  const page = asset('index.html', Buffer.from(html), docsCsp(origin));
  if (made.size >= MAX_MADE) made.clear();
  made.set(key, page);
  return page;
}
