import { STATUS_CODES } from 'node:http';
import type { JsonNode } from '../openapi/dereference.ts';
import { codeTableRows, errorId, type MarkdownSection, plainText } from './markdown.ts';

/** One thing the docs page's search finds, and where it lives on the page. */
export interface SearchEntry {
  kind: 'guide' | 'operation' | 'parameter' | 'field' | 'schema' | 'error';
  title: string;
  /** Where it belongs, shown under the title: `GET /v1/pets`, `Field of Pet`, `Error · 400`. */
  context: string;
  /** The element id to go to. */
  anchor: string;
  /** Identifiers that name it besides its title (operationId, method and path, status): weighed above prose. */
  keywords: string;
  /** Words matched besides the title. */
  text: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
/** Prose beyond this many characters adds little to what an entry is about, and weighs on the page. */
const MAX_TEXT = 2_000;

const text = (markdown: unknown) =>
  typeof markdown === 'string' ? plainText(markdown).slice(0, MAX_TEXT) : '';

/** The anchor of an operation, as the page and the deprecation `Link` headers name it. */
export const operationAnchor = (tag: string, operationId: string) => `tag/${tag}/operation/${operationId}`;
export const schemaAnchor = (name: string) => `schema/${name}`;
export const fieldAnchor = (schema: string, field: string) => `schema/${schema}/${field}`;

function basePath(servers: unknown): string {
  const url = (servers as { url?: string }[] | undefined)?.[0]?.url ?? '/';
  return new URL(url, 'http://localhost/').pathname.replace(/\/$/, '');
}

function operations(document: JsonNode): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonNode>)) {
    for (const method of METHODS) {
      const operation = item[method] as JsonNode | undefined;
      if (!operation) continue;
      const id = String(operation.operationId);
      const anchor = operationAnchor((operation.tags as string[] | undefined)?.[0] ?? 'Other', id);
      const title = String(operation.summary ?? id);
      const where = `${method.toUpperCase()} ${basePath(item.servers ?? document.servers)}${path}`;
      entries.push({
        kind: 'operation',
        title,
        context: where,
        anchor,
        keywords: id,
        text: text(operation.description),
      });
      for (const parameter of (operation.parameters as JsonNode[] | undefined) ?? []) {
        const context = `${title} · ${String(parameter.in)} parameter`;
        entries.push({
          kind: 'parameter',
          title: String(parameter.name),
          context,
          anchor,
          keywords: '',
          text: text(parameter.description),
        });
      }
      const body = (operation.requestBody as JsonNode | undefined)?.content as
        Record<string, JsonNode> | undefined;
      const properties = (body?.['application/json']?.schema as JsonNode | undefined)?.properties;
      for (const [name, property] of Object.entries((properties as Record<string, JsonNode>) ?? {})) {
        entries.push({
          kind: 'field',
          title: name,
          context: `${title} · body field`,
          anchor,
          keywords: '',
          text: text(property.description),
        });
      }
    }
  }
  return entries;
}

/** `integer int64`: what a schema is, so `int64` finds the fields that are. */
const typeWords = (schema: JsonNode) =>
  [schema.type, schema.format].filter((word) => typeof word === 'string').join(' ');

function schemas(document: JsonNode): SearchEntry[] {
  const all = ((document.components as JsonNode | undefined)?.schemas ?? {}) as Record<string, JsonNode>;
  return Object.entries(all).flatMap(([name, schema]) => [
    {
      kind: 'schema' as const,
      title: name,
      context: 'Schema',
      anchor: schemaAnchor(name),
      keywords: typeWords(schema),
      text: text(schema.description),
    },
    ...Object.entries((schema.properties as Record<string, JsonNode> | undefined) ?? {}).map(
      ([field, property]) => ({
        kind: 'field' as const,
        title: field,
        context: `Field of ${name}`,
        anchor: fieldAnchor(name, field),
        keywords: typeWords(property),
        text: text(property.description),
      }),
    ),
  ]);
}

/**
 * What the page's search looks through, built once on the server (the page indexes it with MiniSearch,
 * public/search-engine.js): guide sections, operations
 * with their parameters and body fields, schemas with their fields, and the error codes of the
 * catalogue table. The page searches it in memory: no request per keystroke.
 */
export function searchIndex(document: JsonNode, sections: MarkdownSection[]): SearchEntry[] {
  const description = String((document.info as JsonNode).description ?? '');
  const errors = codeTableRows(description).map(({ code, cells }) => ({
    kind: 'error' as const,
    title: code,
    context: `Error · ${cells[0] ?? ''}`.trim(),
    anchor: errorId(code),
    keywords: `${cells[0] ?? ''} ${STATUS_CODES[cells[0] ?? ''] ?? ''}`.trim(),
    text: cells.slice(1).join(' '),
  }));
  const guides = sections.map((section) => ({
    kind: 'guide' as const,
    title: section.title,
    context: 'Guide',
    anchor: section.id,
    keywords: '',
    text: text(section.markdown),
  }));
  return [...guides, ...operations(document), ...schemas(document), ...errors];
}
