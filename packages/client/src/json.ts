/** The int64 fields of the API's bodies: parsed to bigint from their exact source text. */
const INT64_FIELDS = new Set(['id', 'categoryId']);
const INTEGER_LITERAL = /^-?\d+$/;

/** `JSON.rawJSON` (ES2025), not yet in TypeScript's lib. */
const rawJson = JSON as unknown as { rawJSON(text: string): unknown };

/**
 * Parses a response body keeping `id` and `categoryId` exact: the reviver's `context.source` is the
 * literal text, so 9223372036854775807 becomes 9223372036854775807n, not 9223372036854775808.
 */
export function parseJson(text: string): unknown {
  return JSON.parse(text, (key: string, value: unknown, context?: { source?: string }) => {
    const source = context?.source;
    if (typeof value !== 'number' || !INT64_FIELDS.has(key) || source === undefined) return value;
    return INTEGER_LITERAL.test(source) ? BigInt(source) : value;
  });
}

/** Serialises a request body, writing every bigint as a JSON number digit for digit. */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? rawJson.rawJSON(v.toString()) : v,
  );
}
