import { escapeHtml } from '../dashboard/html.ts';
import { asset, DOCS_CSP, DOCS_PAGE, type DocsAsset } from './assets.ts';

export interface DocsSite {
  /** Shown as the reference's title: the project's name on its site. */
  title: string;
  /** Where try-it sends requests; '' for this origin (the API host's own /docs). */
  apiOrigin: string;
}

export interface DocsPage {
  asset: DocsAsset;
  csp: string;
}

const cache = new Map<string, DocsPage>();
const template = DOCS_PAGE.body.toString();

/**
 * The reference page as a project's docs site serves it: its title, and the API origin that try-it
 * calls (allowed by the page's CSP). Built once per site and kept (a few KiB each, bounded).
 */
export function docsPageFor(site: DocsSite): DocsPage {
  const key = `${site.title}\u0000${site.apiOrigin}`;
  let page = cache.get(key);
  if (!page) {
    const body = template
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(site.title)} · API reference</title>`)
      .replace(
        '</head>',
        `  <meta name="petstore-site-title" content="${escapeHtml(site.title)}" />\n    <meta name="petstore-api-origin" content="${escapeHtml(site.apiOrigin)}" />\n  </head>`,
      );
    const csp = site.apiOrigin
      ? DOCS_CSP.replace("connect-src 'self'", `connect-src 'self' ${site.apiOrigin}`)
      : DOCS_CSP;
    page = { asset: asset('index.html', Buffer.from(body)), csp };
    if (cache.size >= 1_000) cache.clear();
    cache.set(key, page);
  }
  return page;
}
