import type { paths } from '@petstore/contract/manage';
import type { RateLimit } from './types.ts';

/**
 * The management API's operations, typed from its contract (`openapi/manage.yaml`, whose types
 * `npm run generate:types` writes): a path and a method pick the operation, whose parameters, body and
 * answer follow. An operation added to the contract needs nothing written here.
 */
export type { paths as ManagePaths } from '@petstore/contract/manage';

/** The HTTP methods the management API uses. */
export type ManageMethod = 'get' | 'post' | 'patch' | 'delete';

/** The paths that have an operation for `M`. */
export type ManagePathOf<M extends ManageMethod> = {
  [P in keyof paths]: paths[P] extends Record<M, { responses: unknown }> ? P : never;
}[keyof paths];

/** The operation at path `P` for method `M`. */
export type ManageOperation<P extends keyof paths, M extends ManageMethod> =
  paths[P] extends Record<M, infer O> ? O : never;

type Parameters<O> = O extends { parameters: infer Given } ? Given : never;
type Field<T, K extends string> = T extends Partial<Record<K, infer V>> ? V : undefined;

/** `path` when the operation has path parameters (then it is required). */
type PathPart<O> = [NonNullable<Field<Parameters<O>, 'path'>>] extends [never]
  ? { path?: undefined }
  : { path: NonNullable<Field<Parameters<O>, 'path'>> };

/** `query` when the operation takes query parameters (all optional in this API). */
type QueryPart<O> = [NonNullable<Field<Parameters<O>, 'query'>>] extends [never]
  ? { query?: undefined }
  : { query?: NonNullable<Field<Parameters<O>, 'query'>> };

type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** `body` when the operation takes one: required when the contract says so. */
type BodyPart<O> = O extends { requestBody: infer R }
  ? { body: JsonBody<R> }
  : O extends { requestBody?: infer R }
    ? [JsonBody<NonNullable<R>>] extends [never]
      ? { body?: undefined }
      : { body?: JsonBody<NonNullable<R>> }
    : { body?: undefined };

/** What a call of operation `O` is given: its path and query parameters and its body. */
export type ManageInit<O> = PathPart<O> & QueryPart<O> & BodyPart<O>;

/** The init argument: optional when nothing in it is required. */
export type InitArgument<O> = object extends ManageInit<O> ? [init?: ManageInit<O>] : [init: ManageInit<O>];

type Responses<O> = O extends { responses: infer R } ? R : never;
type SuccessStatus = 200 | 201 | 202;

/** The JSON body of the operation's successful answer. */
export type ManageData<O> = {
  [S in keyof Responses<O>]: S extends SuccessStatus ? JsonBody<Responses<O>[S]> : never;
}[keyof Responses<O>];

/** A successful answer: its body, status, request id and rate-limit state. */
export interface ManageResult<Data> {
  data: Data;
  status: number;
  /** The `X-Request-Id` to quote when asking for help. */
  requestId: string | undefined;
  rateLimit: RateLimit | undefined;
}

/** A page of the management API: `data`, `hasMore`, and `next` to pass as `cursor` for the next page. */
interface PageBody {
  data: unknown[];
  hasMore: boolean;
  next: string | null;
}

/** The paths whose GET answers a page (`data`, `hasMore`, `next`) and takes a `cursor`. */
export type ManagePagedPath = {
  [P in ManagePathOf<'get'>]: ManageData<ManageOperation<P, 'get'>> extends PageBody ? P : never;
}[ManagePathOf<'get'>];

/** One item of the pages of path `P`. */
export type ManagePageItem<P extends ManagePagedPath> =
  ManageData<ManageOperation<P, 'get'>> extends { data: (infer Item)[] } ? Item : never;

/** What `pages` is given: the GET's parameters but `cursor`, which it follows itself. */
export type ManagePagesInit<P extends ManagePagedPath> = Omit<
  ManageInit<ManageOperation<P, 'get'>>,
  'query'
> & {
  query?: Omit<NonNullable<ManageInit<ManageOperation<P, 'get'>>['query']>, 'cursor'> & { cursor?: string };
};

/** The paths whose GET can answer `application/x-ndjson`. */
export type ManageNdjsonPath = {
  [P in ManagePathOf<'get'>]: Responses<ManageOperation<P, 'get'>> extends Record<
    200,
    { content: { 'application/x-ndjson': unknown } }
  >
    ? P
    : never;
}[ManagePathOf<'get'>];

/** One line of the NDJSON export of path `P`: an item of its JSON pages. */
export type ManageNdjsonItem<P extends ManageNdjsonPath> = P extends ManagePagedPath
  ? ManagePageItem<P>
  : unknown;
