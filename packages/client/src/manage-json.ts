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
