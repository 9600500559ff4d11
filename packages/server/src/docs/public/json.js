// Lossless JSON for the page: integers beyond 2^53 (the int64 ids and categoryIds) stay exact as
// bigint when parsed, and are written back digit for digit.

const INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** Whether this browser hands the reviver the source text of each value (needed to stay lossless). */
export const losslessSupported = (() => {
  let supported = false;
  JSON.parse('1', (_key, value, context) => {
    supported = typeof context?.source === 'string';
    return value;
  });
  return supported;
})();

/** JSON.parse, but integers that a number cannot hold exactly come back as bigint. */
export function parseLossless(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && INTEGER.test(context?.source ?? '')
      ? BigInt(context.source)
      : value,
  );
}

/** JSON.stringify with two-space indentation that writes bigints as plain JSON numbers. */
export function stringifyPretty(value, indent = '') {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + stringifyPretty(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  const body = entries.map(
    ([key, item]) => `${inner}${JSON.stringify(key)}: ${stringifyPretty(item, inner)}`,
  );
  return `{\n${body.join(',\n')}\n${indent}}`;
}

/** A response body for display: JSON re-indented without losing digits, anything else as sent. */
export function formatBody(text) {
  if (text.trim() === '') return '';
  try {
    return stringifyPretty(parseLossless(text));
  } catch {
    return text;
  }
}
