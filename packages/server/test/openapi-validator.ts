import assert from 'node:assert/strict';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { openapiDocument } from '../src/openapi/document.ts';
import { findRoute, type Located, type Node, pointerOf, resolve } from './openapi-routes.ts';

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

const DOCUMENT_ID = 'petstore-openapi';
const ERROR_SCHEMA = '/components/schemas/Error';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// strict: false lets OpenAPI's own keywords (example, …) through; formats adds int64 and friends.
const ajv = new Ajv2020({ strict: false, allErrors: true });
formats.default(ajv);
ajv.addSchema(openapiDocument, DOCUMENT_ID);

const validators = new Map<string, ValidateFunction>();

/** The compiled validator of the schema at `pointer` in the document, compiled once. */
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    const fragment = pointer.split('/').map(encodeURIComponent).join('/');
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
    validators.set(pointer, validate);
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
function coerce(value: string, schemaPointer: string): unknown {
  const { type } = resolve(schemaPointer).node;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

/** Checks the body against the media types of a declared response; returns the problems found. */
function checkBody(
  { node, pointer }: Located,
  response: ContractResponse,
  headers: Map<string, string>,
): string[] {
  const content = node.content as Node | undefined;
  const contentType = headers.get('content-type');
  if (!content) return response.body === '' ? [] : [`declares no body, got ${response.body.length} bytes`];
  const declared = Object.keys(content);
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const mediaType = declared.find((type) => type.toLowerCase() === essence);
  if (!mediaType) return [`content-type is ${contentType ?? 'missing'}, expected ${declared.join(' or ')}`];
  if (response.body === '') return ['declares a body, got none'];

  const schemaPointer = `${pointer}${pointerOf('content', mediaType, 'schema')}`;
  let body: unknown = response.body;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      body = JSON.parse(response.body);
    } catch {
      return [`body is not JSON: ${response.body.slice(0, 200)}`];
    }
  }
  const validate = validatorAt(schemaPointer);
  const problems = validate(body) ? [] : describe(validate.errors, 'body');
  const isError =
    resolve(schemaPointer).pointer === ERROR_SCHEMA && typeof body === 'object' && body !== null;
  if (isError && (body as Node).status !== response.status) {
    problems.push(`body.status is ${(body as Node).status}, the HTTP status is ${response.status}`);
  }
  return problems;
}

/** Checks the headers declared on a response: the required ones are present, all present ones valid. */
function checkHeaders({ node, pointer }: Located, headers: Map<string, string>): string[] {
  const declared = (node.headers ?? {}) as Node;
  return Object.keys(declared).flatMap((name) => {
    const header = resolve(`${pointer}${pointerOf('headers', name)}`);
    const value = headers.get(name.toLowerCase());
    if (value === undefined)
      return header.node.required === true ? [`header ${name} is required but missing`] : [];
    const schemaPointer = `${header.pointer}/schema`;
    const validate = validatorAt(schemaPointer);
    return validate(coerce(value, schemaPointer))
      ? []
      : describe(validate.errors, `header ${name} '${value}'`);
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
  const responses = operation.responses as Node;
  const key = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find(
    (k) => k in responses,
  );
  if (!key) {
    const listed = Object.keys(responses).join(', ');
    fail(response, String(operation.operationId), [`status ${response.status} is not declared (${listed})`]);
  }
  const declared = resolve(pointerOf('paths', route.template, method, 'responses', key));
  const headers = headerMap(response.headers);
  const problems = [...checkBody(declared, response, headers), ...checkHeaders(declared, headers)];
  if (problems.length > 0) fail(response, `${operation.operationId} ${key}`, problems);
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
  const validate = validatorAt(ERROR_SCHEMA);
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
