import { jsonParser, stringifyJson } from '@petstore/json';

/**
 * Parses a response body keeping `id` and `categoryId` exact: the reviver's `context.source` is the
 * literal text, so 9223372036854775807 becomes 9223372036854775807n, not 9223372036854775808.
 */
export const parseJson: (text: string) => unknown = jsonParser({ keys: ['id', 'categoryId'] });

/** Serialises a request body, writing every bigint as a JSON number digit for digit. */
export { stringifyJson };
