import { parseJson, stringifyJson } from '@petstore/json';
import { exactContract, manageContract } from '../openapi/contract.ts';
import { dereference, type JsonNode } from '../openapi/dereference.ts';
import { CLIENT_OPERATIONS } from './client-operations.ts';
import { clientPackageName } from './client-manifest.ts';
import { type MarkdownSection, renderInline, renderMarkdown, splitSections } from './markdown.ts';
import { searchIndex } from './search-index.ts';
import { siteDocument } from './site-edition.ts';

/**
 * `inline`: a server or a response, shown on one line, so its own description is inline HTML;
 * `entries`: the list of servers or the map of responses, whose entries are `inline`.
 */
type Mode = 'block' | 'entries' | 'inline';

function withHtml(node: unknown, mode: Mode, seen: WeakMap<object, unknown>): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (seen.has(node)) return seen.get(node);
  const childMode = (key: string): Mode =>
    mode === 'entries' ? 'inline' : key === 'servers' || key === 'responses' ? 'entries' : 'block';
  if (Array.isArray(node)) {
    const copy: unknown[] = [];
    seen.set(node, copy);
    copy.push(...node.map((item) => withHtml(item, childMode(''), seen)));
    return copy;
  }
  const copy: JsonNode = {};
  seen.set(node, copy);
  for (const [key, value] of Object.entries(node)) {
    copy[key] = withHtml(value, childMode(key), seen);
    if (key === 'description' && typeof value === 'string' && mode !== 'entries') {
      copy.descriptionHtml = mode === 'inline' ? renderInline(value) : renderMarkdown(value);
    }
  }
  return copy;
}

/**
 * The docs page's data: the contract with every `$ref` resolved (component schemas keep their name
 * as `title`) and every `description` rendered to HTML beside it (`descriptionHtml`; a server's or a
 * response's inline). Added for the page: the introduction cut into its guide sections
 * (`info['x-sections']`: id, title, html), the search index (`x-search`), the operations the typed
 * client has a method for (`x-client-operations`) and its package (`x-client-package`: name, file).
 * Built on the first request for either edition, once; integers keep their digits.
 * The `site` edition is what a project's published docs show (site-edition.ts).
 */
function render(exact: JsonNode = exactContract()): {
  rendered: JsonNode;
  resolved: JsonNode;
  sections: MarkdownSection[];
} {
  const resolved = dereference(exact);
  const rendered = withHtml(resolved, 'block', new WeakMap()) as JsonNode;
  const info = rendered.info as JsonNode;
  const sections = splitSections(String(info.description ?? ''));
  info['x-sections'] = sections.map(({ id, title, markdown }) => ({
    id,
    title,
    html: renderMarkdown(markdown),
  }));
  delete info.descriptionHtml;
  rendered['x-client-operations'] = CLIENT_OPERATIONS;
  rendered['x-client-package'] = clientPackageName();
  return { rendered, resolved, sections };
}

let rendering: ReturnType<typeof render> | undefined;
let service: string | undefined;
let site: string | undefined;

/** The service edition (what `/docs` shows), built on first use and kept. */
export function referenceJson(): string {
  rendering ??= render();
  const { rendered, resolved, sections } = rendering;
  service ??= stringifyJson({ ...rendered, 'x-search': searchIndex(resolved, sections) });
  return service;
}

/** The site edition (what a project's published docs show), built on first use and kept. */
export function siteReferenceJson(): string {
  rendering ??= render();
  const { rendered, resolved, sections } = rendering;
  site ??= stringifyJson({
    ...siteDocument(rendered),
    'x-search': searchIndex(siteDocument(resolved), sections),
  });
  return site;
}

let manage: string | undefined;

/**
 * The management API's reference (what `/docs/manage` shows), from openapi/manage.yaml, built on first
 * use and kept: the same page, without the typed client (it has no management methods yet).
 */
export function manageReferenceJson(): string {
  if (manage === undefined) {
    const { rendered, resolved, sections } = render(parseJson(manageContract().json) as JsonNode);
    rendered['x-client-operations'] = [];
    delete rendered['x-client-package'];
    manage = stringifyJson({ ...rendered, 'x-search': searchIndex(resolved, sections) });
  }
  return manage;
}

/** The asset each edition of the page loads, under /docs/assets/. */
export const REFERENCE_ASSETS = {
  service: 'reference.json',
  site: 'site-reference.json',
  manage: 'manage-reference.json',
} as const;
