declare global {
  interface JSON {
    /** Emits its text as a raw JSON literal (ES2025, V8). */
    rawJSON(text: string): unknown;
  }
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;
const CANONICAL_DECIMAL = /^(?:0|-?[1-9]\d*)$/;

interface ReviverContext {
  source?: string;
}

/**
 * JSON.parse that keeps every integer literal exact: integers come back as bigint, other numbers as
 * number. Uses the reviver's `context.source` (the literal text) so nothing is rounded on the way.
 */
export function parseJsonLossless(text: string): unknown {
  return JSON.parse(text, function revive(
    this: unknown,
    _key: string,
    value: unknown,
    context?: ReviverContext,
  ) {
    if (typeof value === 'number' && context?.source !== undefined && INTEGER_LITERAL.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  } as (this: unknown, key: string, value: unknown) => unknown);
}

/** Parses a canonical decimal int64 ("0", "42", "-7"); anything else, or out of range, is undefined. */
export function parseInt64(text: string): bigint | undefined {
  if (text.length > 20 || !CANONICAL_DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}

export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** JSON.stringify that writes bigints as exact JSON numbers. */
export function stringifyLossless(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
}
