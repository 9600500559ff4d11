/** What the client needs from the JavaScript runtime it runs in. */
export const REQUIRED_RUNTIME =
  'Node.js 20 or later, or a browser with fetch, URL.canParse and crypto.randomUUID (a secure context)';

/** The globals the check reads; the real ones by default, stand-ins in tests. */
export interface RuntimeScope {
  fetch?: unknown;
  URL?: { canParse?: unknown };
  crypto?: { randomUUID?: unknown };
  process?: { versions?: { node?: string } };
}

/**
 * Why this runtime cannot run the client, or undefined when it can. Older runtimes are refused by name
 * when the client is created, rather than failing later on a missing global. (64-bit integers need
 * nothing more: where `JSON.parse` gives the reviver no source text, the JSON module reads it itself.)
 */
export function runtimeProblem(scope: RuntimeScope = globalThis as RuntimeScope): string | undefined {
  const missing = [
    typeof scope.fetch === 'function' ? undefined : 'fetch',
    typeof scope.URL?.canParse === 'function' ? undefined : 'URL.canParse',
    typeof scope.crypto?.randomUUID === 'function' ? undefined : 'crypto.randomUUID',
  ].filter((name) => name !== undefined);
  if (missing.length === 0) return undefined;
  const node = scope.process?.versions?.node;
  const runtime = node === undefined ? 'this runtime' : `Node.js ${node}`;
  return `@petstore/client needs ${REQUIRED_RUNTIME}; ${runtime} lacks ${missing.join(', ')}`;
}
