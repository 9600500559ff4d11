import assert from 'node:assert/strict';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { manageContract, publicContract } from '../src/openapi/contract.ts';
import { findRoute, type Node } from './openapi-routes.ts';

/** A response as a test received it, with the request that produced it. */
export interface ContractResponse {
  method: string;
  /** The concrete request path, query string allowed: `/v1/pets/7`, `/v1/pets?limit=3`, `/healthz`. */
  path: string;
  status: number;
  headers: Headers | Record<string, string | string[] | number | undefined>;
  /** The body exactly as received (`''` when there is none). */
  body: string;
}

const ERROR_SCHEMA = (publicContract().document.components.schemas as Node).Error;
const MANAGE_ERROR_SCHEMA = (manageContract().document.components.schemas as Node).Error;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// strict: false lets OpenAPI's own keywords (example, …) through; formats adds int64 and friends.
const ajv = new Ajv2020({ strict: false, allErrors: true });
formats.default(ajv);

const validators = new WeakMap<object, ValidateFunction>();

/** The compiled validator of a (dereferenced) schema of the contract, compiled once. */
function validatorOf(schema: Node): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const describe = (errors: ErrorObject[] | null | undefined, subject: string): string[] =>
  (errors ?? []).map((error) => {
    const extra = error.params.additionalProperty ? ` '${error.params.additionalProperty}'` : '';
    return `${subject}${error.instancePath} ${error.message}${extra}`;
  });

function headerMap(headers: ContractResponse['headers']): Map<string, string> {
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers);
  const map = new Map<string, string>();
  for (const [name, value] of entries) {
    if (value !== undefined)
      map.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  }
  return map;
}

/** Headers are strings on the wire; a numeric header schema is checked against the number written. */
function coerce(value: string, schema: Node): unknown {
  const { type } = schema;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

/** Checks the body against the media types of a declared response; returns the problems found. */
function checkBody(
  declaredResponse: Node,
  response: ContractResponse,
  headers: Map<string, string>,
): string[] {
  const content = declaredResponse.content as Node | undefined;
  const contentType = headers.get('content-type');
  if (!content) return response.body === '' ? [] : [`declares no body, got ${response.body.length} bytes`];
  const declared = Object.keys(content);
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const mediaType = declared.find((type) => type.toLowerCase() === essence);
  if (!mediaType) return [`content-type is ${contentType ?? 'missing'}, expected ${declared.join(' or ')}`];
  const json = mediaType === 'application/json' || mediaType.endsWith('+json');
  // Text may be empty where its schema allows it (an export with nothing to export); JSON may not.
  if (response.body === '' && json) return ['declares a body, got none'];

  const schema = (content[mediaType] as Node).schema as Node;
  let body: unknown = response.body;
  if (json) {
    try {
      body = JSON.parse(response.body);
    } catch {
      return [`body is not JSON: ${response.body.slice(0, 200)}`];
    }
  }
  const validate = validatorOf(schema);
  const problems = validate(body) ? [] : describe(validate.errors, 'body');
  const isError =
    (schema === ERROR_SCHEMA || schema === MANAGE_ERROR_SCHEMA) && typeof body === 'object' && body !== null;
  if (isError && (body as Node).status !== response.status) {
    problems.push(`body.status is ${(body as Node).status}, the HTTP status is ${response.status}`);
  }
  return problems;
}

/** Checks the headers declared on a response: the required ones are present, all present ones valid. */
function checkHeaders(response: Node, headers: Map<string, string>): string[] {
  const declared = (response.headers ?? {}) as Record<string, Node>;
  return Object.entries(declared).flatMap(([name, header]) => {
    const value = headers.get(name.toLowerCase());
    if (value === undefined)
      return header.required === true ? [`header ${name} is required but missing`] : [];
    const schema = header.schema as Node;
    const validate = validatorOf(schema);
    return validate(coerce(value, schema)) ? [] : describe(validate.errors, `header ${name} '${value}'`);
  });
}

/** Throws one assertion error listing every problem. */
function fail(response: ContractResponse, what: string, problems: string[]): never {
  const request = `${response.method.toUpperCase()} ${response.path} → ${response.status}`;
  assert.fail(`${request} does not match the contract (${what}):\n  - ${problems.join('\n  - ')}`);
}

/**
 * Asserts that a real response is one the contract allows for its operation: the status is declared (or
 * covered by `default`), the content type and body match the declared media type and schema, and every
 * declared header is valid and present when required.
 */
export function assertMatchesContract(response: ContractResponse): void {
  const route = findRoute(response.path);
  const method = response.method.toLowerCase();
  const operation = route?.item[method] as Node | undefined;
  if (!route || !operation) {
    fail(response, 'no operation', [
      `the contract has no operation ${method.toUpperCase()} ${response.path}`,
    ]);
  }
  if (response.status === 429 && /"code":"too_many_connections"/.test(response.body)) {
    return assertConnectionRefusal(response);
  }
  const responses = operation.responses as Node;
  const key = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find(
    (k) => k in responses,
  );
  if (!key) {
    const listed = Object.keys(responses).join(', ');
    fail(response, String(operation.operationId), [`status ${response.status} is not declared (${listed})`]);
  }
  const declared = responses[key] as Node;
  const headers = headerMap(response.headers);
  const problems = [...checkBody(declared, response, headers), ...checkHeaders(declared, headers)];
  if (problems.length > 0) fail(response, `${operation.operationId} ${key}`, problems);
}

/**
 * The per-address connection cap answers `429 too_many_connections` before any request on the connection
 * is read, whatever it would have asked: no operation's answer, so (as the contract says) an Error body,
 * `Retry-After: 1` and `X-Request-Id`, and no rate-limit headers.
 */
function assertConnectionRefusal(response: ContractResponse): void {
  const headers = headerMap(response.headers);
  const problems: string[] = [];
  const validate = validatorOf(ERROR_SCHEMA as Node);
  if (!validate(JSON.parse(response.body))) problems.push(...describe(validate.errors, 'body'));
  if (headers.get('retry-after') !== '1') problems.push('Retry-After is not 1');
  if (!headers.get('x-request-id')) problems.push('X-Request-Id is missing');
  for (const name of ['x-ratelimit-limit', 'ratelimit', 'ratelimit-policy'])
    if (headers.has(name)) problems.push(`${name} is present`);
  if (problems.length > 0) fail(response, 'connection refused', problems);
}

/**
 * Asserts the answer to a request that is no operation of the contract: `404 not_found` when no path
 * matches, `405 method_not_allowed` with an `Allow` header listing the path's methods when the path exists;
 * either way an Error body.
 */
export function assertUnknownRouteResponse(response: ContractResponse): void {
  const route = findRoute(response.path);
  const method = response.method.toLowerCase();
  if (route?.item[method]) {
    fail(response, 'unknown route', ['this is an operation of the contract; use assertMatchesContract']);
  }
  const headers = headerMap(response.headers);
  const [status, code] = route ? [405, 'method_not_allowed'] : [404, 'not_found'];
  const problems = response.status === status ? [] : [`expected status ${status}`];
  const contentType = headers.get('content-type') ?? 'missing';
  if (!contentType.startsWith('application/json')) problems.push(`content-type is ${contentType}`);
  let body: Node = {};
  try {
    body = JSON.parse(response.body) ?? {};
  } catch {
    problems.push(`body is not JSON: ${response.body.slice(0, 200)}`);
  }
  const validate = validatorOf(ERROR_SCHEMA as Node);
  if (!validate(body)) problems.push(...describe(validate.errors, 'body'));
  if (body.code !== code || body.status !== status)
    problems.push(`expected code ${code} and status ${status}`);
  if (route) {
    const allow = (headers.get('allow') ?? '').split(',').map((name) => name.trim().toLowerCase());
    const missing = METHODS.filter((m) => route.item[m] && !allow.includes(m));
    if (missing.length > 0)
      problems.push(`Allow '${headers.get('allow') ?? ''}' lacks ${missing.join(', ')}`);
  }
  if (problems.length > 0) fail(response, 'unknown route', problems);
}

/**
 * Asserts the answer to `OPTIONS` on a path of the contract (the CORS preflight, described in the
 * contract's introduction rather than as an operation): `204` without a body, `Allow` listing every
 * method the contract gives the path, HEAD with GET, and OPTIONS.
 */
export function assertPreflightResponse(response: ContractResponse): void {
  const route = findRoute(response.path);
  if (!route) fail(response, 'preflight', [`the contract has no path ${response.path}`]);
  const headers = headerMap(response.headers);
  const problems = response.status === 204 ? [] : ['expected status 204'];
  if (response.body !== '') problems.push(`expected no body, got ${response.body.length} bytes`);
  const allow = (headers.get('allow') ?? '').split(',').map((name) => name.trim().toLowerCase());
  const expected = METHODS.filter((m) => route.item[m]);
  if (expected.includes('get')) expected.push('head');
  expected.push('options');
  if ([...allow].sort().join() !== [...new Set(expected)].sort().join())
    problems.push(`Allow '${headers.get('allow') ?? ''}' is not ${expected.join(', ')}`);
  if (problems.length > 0) fail(response, 'preflight', problems);
}

/**
 * Asserts an answer given outside any operation (malformed HTTP, timeouts, refused connections): the
 * Error body of the contract with this status and code, `status` repeated, the `X-Request-Id` header
 * equal to the body's `requestId`, and `application/json`.
 */
export function assertErrorAnswer(
  response: Pick<ContractResponse, 'status' | 'headers' | 'body'>,
  status: number,
  code: string,
): Node {
  const headers = headerMap(response.headers);
  const problems: string[] =
    response.status === status ? [] : [`status is ${response.status}, expected ${status}`];
  const contentType = headers.get('content-type') ?? 'missing';
  if (!contentType.startsWith('application/json')) problems.push(`content-type is ${contentType}`);
  let body: Node = {};
  try {
    body = JSON.parse(response.body) ?? {};
  } catch {
    problems.push(`body is not JSON: ${response.body.slice(0, 200)}`);
  }
  const validate = validatorOf(ERROR_SCHEMA as Node);
  if (!validate(body)) problems.push(...describe(validate.errors, 'body'));
  if (body.code !== code || body.status !== status)
    problems.push(`body is ${JSON.stringify(body)}, expected code ${code}`);
  if (typeof body.requestId !== 'string' || headers.get('x-request-id') !== body.requestId) {
    problems.push(`X-Request-Id '${headers.get('x-request-id')}' is not the body's requestId`);
  }
  if (problems.length > 0)
    assert.fail(
      `answer ${response.status} is not the Error ${status} ${code}:\n  - ${problems.join('\n  - ')}`,
    );
  return body;
}

/** Asserts a value against a (dereferenced) schema of either contract: a line of an NDJSON export, say. */
export function assertMatchesSchema(schema: Node, value: unknown, what: string): void {
  const validate = validatorOf(schema);
  if (!validate(value)) {
    assert.fail(
      `${what} does not match the contract:\n  - ${describe(validate.errors, what).join('\n  - ')}`,
    );
  }
}
