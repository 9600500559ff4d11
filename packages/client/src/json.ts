import { jsonParser, stringifyJson } from '@petstore/json';
import { MANAGE_INT64_FIELDS } from './manage-json.ts';

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

let parseManage: ((text: string) => unknown) | undefined;

/**
 * Parses a management API body, its int64 fields (MANAGE_INT64_FIELDS) as bigint and every other
 * number as a number. Here, beside parseJson, so the client imports the JSON module from one file.
 */
export function parseManageJson(text: string): unknown {
  // Made at the first response, after createManageClient has checked the runtime.
  parseManage ??= jsonParser({ keys: MANAGE_INT64_FIELDS });
  return parseManage(text);
}
