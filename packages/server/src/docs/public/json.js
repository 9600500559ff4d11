// JSON for the page, from the module the server and the client use: integers beyond 2^53 (the int64
// ids and categoryIds) stay exact as bigint when parsed, and are written back digit for digit.

// Served beside this file as lossless-json.js: the very file `@petstore/json` resolves to on the server.
import { jsonParser, stringifyJson } from './lossless-json.js';

/** JSON.parse, but integers that a number cannot hold exactly come back as bigint. */
export const parseLossless = jsonParser({ integers: 'unsafe' });

/** JSON with two-space indentation that writes bigints as plain JSON numbers. */
export const stringifyPretty = (value) => stringifyJson(value, 2);

/** Compact JSON, bigints digit for digit. */
export const stringifyCompact = (value) => stringifyJson(value);

/** A response body for display: JSON re-indented without losing digits, anything else as sent. */
export function formatBody(text) {
  if (text.trim() === '') return '';
  try {
    return stringifyPretty(parseLossless(text));
  } catch {
    return text;
  }
}
