import type { JsonNode } from '../openapi/dereference.ts';

/**
 * The tags whose operations a project's readers call with their own keys. The others (`Operations`:
 * health, readiness, metrics, the docs and the document) are the service's, for its operators.
 */
export const SITE_TAGS: readonly string[] = ['Pets', 'Store'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Every object reachable from `node` (a dereferenced document shares each component's object). */
function reachable(node: unknown, seen = new Set<object>()): Set<object> {
  if (node === null || typeof node !== 'object' || seen.has(node)) return seen;
  seen.add(node);
  for (const value of Object.values(node)) reachable(value, seen);
  return seen;
}

/**
 * A dereferenced contract as a project's docs site shows it: the operations of SITE_TAGS only, the
 * component schemas they use, and one server, `/v1` on the API's public origin (which the page puts in
 * front), instead of the contract's example addresses, which no reader can call.
 */
export function siteDocument(document: JsonNode): JsonNode {
  const paths: Record<string, JsonNode> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonNode>)) {
    const kept = Object.entries(item).filter(([key, operation]) => {
      if (!METHODS.includes(key)) return true;
      const tag = ((operation as JsonNode).tags as string[] | undefined)?.[0] ?? '';
      return SITE_TAGS.includes(tag);
    });
    if (kept.some(([key]) => METHODS.includes(key))) paths[path] = Object.fromEntries(kept);
  }
  const used = reachable(paths);
  const components = document.components as Record<string, Record<string, unknown>>;
  const schemas = Object.entries(components.schemas ?? {}).filter(([, schema]) => used.has(schema as object));
  return {
    ...document,
    servers: [{ url: '/v1' }],
    tags: (document.tags as JsonNode[]).filter((tag) => SITE_TAGS.includes(String(tag.name))),
    paths,
    components: { ...components, schemas: Object.fromEntries(schemas) },
  };
}
