import { jsonParser } from '@petstore/json';

/**
 * The management API's 64-bit integer fields (`format: int64` in openapi/manage.yaml): limits and
 * usage counts, read as `bigint` as the contract's types say. A test checks this list against the
 * contract, so a new int64 field cannot be read inexactly unnoticed.
 */
export const MANAGE_INT64_FIELDS = [
  'perMinute',
  'perDay',
  'total',
  'ok',
  'clientErrors',
  'rateLimited',
  'serverErrors',
] as const;

let parseManage: ((text: string) => unknown) | undefined;

/** Parses a management API body, its int64 fields as bigint and every other number as a number. */
export function parseManageJson(text: string): unknown {
  // Made at the first response, after createManageClient has checked the runtime.
  parseManage ??= jsonParser({ keys: MANAGE_INT64_FIELDS });
  return parseManage(text);
}
