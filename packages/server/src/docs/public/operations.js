// The operations of the spec, flattened and grouped by their first tag.

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The path part of a server URL (`/v1`, or `/v1` of `https://host/v1`), without a trailing slash. */
export function basePath(serverUrl) {
  return new URL(serverUrl ?? '/', 'http://localhost/').pathname.replace(/\/$/, '');
}

/**
 * The base URLs the page lists, each `{ url, server }`: this deployment's first (the contract's
 * relative server on the API's origin, or the contract's entry of that URL), then the contract's other
 * deployments, but only when this one is among them. A copy running anywhere else (locally, say) lists
 * its own alone: its keys work nowhere else, and the others' keys not on it.
 */
export function baseUrls(servers = [], apiOrigin) {
  const trimmed = (url) => url.replace(/\/$/, '');
  const listed = servers.map((server) => ({
    url: trimmed(server.url.startsWith('/') ? `${apiOrigin}${server.url}` : server.url),
    server,
  }));
  const own = listed.find(({ server }) => server.url.startsWith('/'));
  if (!own) return listed;
  const others = listed.filter((entry) => entry !== own);
  const named = others.find(({ url }) => url === own.url);
  return named ? [named, ...others.filter((entry) => entry !== named)] : [own];
}

/** Path-level parameters, overridden by operation-level ones with the same name and location. */
function parameters(spec, pathLevel = [], operationLevel = []) {
  const merged = new Map();
  for (const node of [...pathLevel, ...operationLevel]) {
    const parameter = node;
    if (parameter?.name) merged.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

/** The anchor of an operation: `tag/Pets/operation/getPet`, as the server's Link headers use. */
export function operationAnchor(tag, operationId) {
  return `tag/${tag}/operation/${operationId}`;
}

export function collectOperations(spec) {
  const found = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      const servers = operation.servers ?? item.servers ?? spec.servers ?? [];
      const tag = operation.tags?.[0] ?? 'Other';
      const operationId = operation.operationId ?? `${method}${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
      found.push({
        method,
        path,
        /** The server's path (`/v1`): what the typed client's baseUrl ends with. */
        base: basePath(servers[0]?.url),
        url: basePath(servers[0]?.url) + path,
        operation,
        operationId,
        tag,
        anchor: operationAnchor(tag, operationId),
        parameters: parameters(spec, item.parameters, operation.parameters),
        security: operation.security ?? spec.security ?? [],
        stability: operation['x-stability'] ?? (operation.deprecated ? 'deprecated' : undefined),
        tryIt: operation['x-try-it'] !== false,
      });
    }
  }
  return found;
}

/** Tags in the document's order (then any others), each with its operations. */
export function groupByTag(spec, operations) {
  const tags = [...(spec.tags ?? [])];
  for (const { tag } of operations) if (!tags.some((known) => known.name === tag)) tags.push({ name: tag });
  return tags
    .map((tag) => ({ tag, operations: operations.filter((operation) => operation.tag === tag.name) }))
    .filter((group) => group.operations.length > 0);
}
