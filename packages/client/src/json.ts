import { jsonParser, stringifyJson } from '@petstore/json';

/**
 * Parses a response body keeping `id` and `categoryId` exact: the reviver's `context.source` is the
 * literal text, so 9223372036854775807 becomes 9223372036854775807n, not 9223372036854775808.
 */
export function parseJson(text: string): unknown {
  // Made at the first response, after createPetstoreClient has checked the runtime.
  parseIds ??= jsonParser({ keys: ['id', 'categoryId'] });
  return parseIds(text);
}
let parseIds: ((text: string) => unknown) | undefined;

/** Serialises a request body, writing every bigint as a JSON number digit for digit. */
export { stringifyJson };
