/** A JSON value of an OpenAPI document. */
export type JsonNode = Record<string, unknown>;

const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

function unescapeSegment(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The value at a local JSON pointer (`#/components/schemas/Pet`), or an Error naming the pointer. */
export function valueAt(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, got ${ref}`);
  const segments = ref.slice(1).split('/').slice(1).map(unescapeSegment);
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) {
      throw new Error(`unresolvable $ref ${ref} in the OpenAPI document`);
    }
    node = (node as JsonNode)[segment];
  }
  return node;
}

/**
 * The document with every local `$ref` replaced by what it points to; keywords beside a `$ref` win over
 * the target's (OpenAPI 3.1). A component schema reached by `$ref` keeps its name as `title` (an
 * annotation, no effect on validation), so readers can still say "Pet". A target is resolved once and
 * shared, so `dereferenced.components.schemas.Error` is the very object every error response holds.
 * A cyclic `$ref` is an Error: this contract has none, and every reader relies on that.
 */
export function dereference<T>(root: T): T {
  const resolved = new Map<string, unknown>();
  const resolving = new Set<string>();

  const resolveRef = (ref: string): unknown => {
    if (resolved.has(ref)) return resolved.get(ref);
    if (resolving.has(ref)) throw new Error(`cyclic $ref ${ref} in the OpenAPI document`);
    resolving.add(ref);
    let target = walk(valueAt(root, ref));
    const name = COMPONENT_SCHEMA.exec(ref)?.[1];
    if (name !== undefined && target !== null && typeof target === 'object' && !('title' in target)) {
      target = { title: name, ...target };
    }
    resolving.delete(ref);
    resolved.set(ref, target);
    return target;
  };

  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as JsonNode;
    const siblings = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, walk(value)]));
    if (typeof $ref !== 'string') return siblings;
    const target = resolveRef($ref);
    return Object.keys(siblings).length === 0 ? target : { ...(target as JsonNode), ...siblings };
  };

  return walk(root) as T;
}
