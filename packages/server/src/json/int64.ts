export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

const CANONICAL_DECIMAL = /^(?:0|-?[1-9]\d*)$/;

/** Parses a canonical decimal int64 ("0", "42", "-7"); anything else, or out of range, is undefined. */
export function parseInt64(text: string): bigint | undefined {
  if (text.length > 20 || !CANONICAL_DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}
