/** What the client needs from the JavaScript runtime it runs in. */
export const REQUIRED_RUNTIME =
  'Node.js 22 or later, or a browser with fetch, URL.canParse, crypto.randomUUID (a secure context) and JSON.parse source text';

/** The globals the check reads; the real ones by default, stand-ins in tests. */
export interface RuntimeScope {
  fetch?: unknown;
  URL?: { canParse?: unknown };
  crypto?: { randomUUID?: unknown };
  JSON?: { parse?: unknown };
  process?: { versions?: { node?: string } };
}

/**
 * Why this runtime cannot run the client, or undefined when it can. Older runtimes are refused by name
 * when the client is created, rather than failing later on a missing global or reading a 64-bit id
 * inexactly (exact ids need `JSON.parse` to give its reviver each number's source text).
 */
export function runtimeProblem(scope: RuntimeScope = globalThis as RuntimeScope): string | undefined {
  const missing = [
    typeof scope.fetch === 'function' ? undefined : 'fetch',
    typeof scope.URL?.canParse === 'function' ? undefined : 'URL.canParse',
    typeof scope.crypto?.randomUUID === 'function' ? undefined : 'crypto.randomUUID',
    givesSourceText(scope.JSON?.parse) ? undefined : 'JSON.parse source text',
  ].filter((name) => name !== undefined);
  if (missing.length === 0) return undefined;
  const node = scope.process?.versions?.node;
  const runtime = node === undefined ? 'this runtime' : `Node.js ${node}`;
  return `@petstore/client needs ${REQUIRED_RUNTIME}; ${runtime} lacks ${missing.join(', ')}`;
}

function givesSourceText(parse: unknown): boolean {
  if (typeof parse !== 'function') return false;
  let given = false;
  (parse as typeof JSON.parse)('1', (_key, value, context?: { source?: unknown }) => {
    given = typeof context?.source === 'string';
    return value;
  });
  return given;
}
