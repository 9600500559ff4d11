import fc from 'fast-check';
import { parseJson, stringifyJson } from '@petstore/json';
import type { Operation, Parameter } from './operations.ts';
import { satisfies, type Schema, typesOf } from './schema-oracle.ts';
import { anyText, ODD_TEXT, oddValue, validValue, valueFor } from './values.ts';

/** One generated request, and the oracle's verdict on it. */
export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as sent; absent when none is. */
  body?: string;
  /** What in it the contract does not accept (empty: the contract accepts the whole request). */
  problems: string[];
  /** `415`/`413` are the answers to a body of another media type or too large, `400` to the rest. */
  media: 'ok' | 'type' | 'size';
}

/**
 * Known values of parameters, by name (the project's slug, ids the run created), and of query
 * parameters by `?name` (cursors the service issued): mostly sent, so that requests reach the service.
 */
export type Pools = (name: string) => readonly string[];

const BODY_LIMIT = 64 * 1024;
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/** The text of a parameter as it is sent (query, path or header), from a value of its schema. */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'bigint' ? String(value) : JSON.stringify(value);

/** Whether the text of a parameter holds its schema: integers only in canonical decimal digits. */
export function textSatisfies(schema: Schema, text: string): boolean {
  if (typesOf(schema)?.includes('integer')) {
    return CANONICAL_INTEGER.test(text) && satisfies(schema, BigInt(text));
  }
  return satisfies(schema, text);
}

/** Texts for a parameter: valid values, odd ones, and integers not written canonically. */
function parameterText(parameter: Parameter): fc.Arbitrary<string> {
  const integers = typesOf(parameter.schema)?.includes('integer')
    ? [fc.constantFrom('01', '+1', '1.0', ' 1', '1e2', '-0', '0x10', '９')]
    : [];
  return (
    fc
      .oneof(
        { weight: 4, arbitrary: validValue(parameter.schema).map(asText) },
        { weight: 2, arbitrary: oddValue(parameter.schema).map(asText) },
        ...integers.map((arbitrary) => ({ weight: 1, arbitrary })),
      )
      // Long enough to break any bound, short enough that the request target stays under 8 KiB (414).
      .map((text) => text.slice(0, 1_000))
  );
}

/** `encodeURIComponent`, with a lone surrogate sent as the bytes of one (no UTF-8 text holds it). */
const encode = (text: string): string =>
  text.isWellFormed()
    ? encodeURIComponent(text)
    : encodeURIComponent(text.toWellFormed()).replaceAll('%EF%BF%BD', '%ED%A0%80');

interface QueryPart {
  name: string;
  text: string;
}

function queryParts(operation: Operation, pools: Pools): fc.Arbitrary<QueryPart[]> {
  const declared = operation.parameters.filter((parameter) => parameter.in === 'query');
  const textOf = (parameter: Parameter) => {
    const known = pools(`?${parameter.name}`);
    return known.length === 0
      ? parameterText(parameter)
      : fc.oneof(fc.constantFrom(...known), parameterText(parameter));
  };
  const present = fc.tuple(
    ...declared.map((parameter) =>
      fc.option(
        textOf(parameter).map((text) => ({ name: parameter.name, text })),
        {
          freq: parameter.required ? 12 : 3,
          nil: undefined,
        },
      ),
    ),
  );
  const unknown = fc.record({
    name: fc.oneof(fc.constantFrom('x', 'Limit', 'a\u0003b', '__proto__', 'api_key'), anyText),
    text: anyText,
  });
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as QueryPart[]) },
    { weight: 1, arbitrary: fc.array(unknown, { minLength: 1, maxLength: 2 }) },
  );
  return fc.tuple(present, extra, fc.nat({ max: 9 })).map(([given, extras, repeat]) => {
    const parts = given.filter((part): part is QueryPart => part !== undefined);
    // Now and then a declared parameter given twice.
    if (repeat === 0 && parts.length > 0) parts.push({ ...parts[0]! });
    return [...parts, ...extras];
  });
}

function queryProblems(operation: Operation, parts: QueryPart[]): string[] {
  const declared = new Map(
    operation.parameters
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => [parameter.name, parameter]),
  );
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { name, text } of parts) {
    const parameter = declared.get(name);
    // The public endpoints (documents, health, docs) ignore query strings, as caches and links add them.
    if (!parameter) {
      if (!operation.open) problems.push(`unknown query parameter ${JSON.stringify(name)}`);
    } else if (seen.has(name)) problems.push(`${name} given twice`);
    else if (!text.isWellFormed() || !textSatisfies(parameter.schema, text))
      problems.push(`query ${name}=${JSON.stringify(text)}`);
    seen.add(name);
  }
  for (const parameter of declared.values())
    if (parameter.required && !seen.has(parameter.name)) problems.push(`missing query ${parameter.name}`);
  return problems;
}

function pathText(parameter: Parameter, pools: Pools): fc.Arbitrary<string> {
  const known = pools(parameter.name);
  return (
    fc
      .oneof(
        ...(known.length > 0 ? [{ weight: 8, arbitrary: fc.constantFrom(...known) }] : []),
        { weight: 2, arbitrary: parameterText(parameter) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_TEXT) },
      )
      // An empty segment is another path, and `.`/`..` are resolved away by clients before sending.
      .filter((text) => text !== '' && text !== '.' && text !== '..' && text.length < 2_000)
  );
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  undefined,
] as const;

interface BodyPart {
  text: string | undefined;
  contentType: string | undefined;
}

/** A body for an operation: of its schema (valid or not), another JSON text, none, or another type. */
function bodyPart(operation: Operation): fc.Arbitrary<BodyPart> {
  if (operation.method === 'GET') return fc.constant({ text: undefined, contentType: undefined });
  const schema = operation.body?.schema ?? { type: 'object', properties: {}, additionalProperties: false };
  const json = fc.oneof(
    { weight: 6, arbitrary: valueFor(schema).map((value) => stringifyJson(value)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'null',
        '[]',
        '1',
        '"x"',
        'true',
        '{}',
        '',
        '{',
        '{"a":1,"a":1}',
        '\ufeff{}',
        '[{}]',
      ),
    },
    { weight: 1, arbitrary: fc.constant(`{"label":"${'x'.repeat(BODY_LIMIT)}"}`) },
  );
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  return fc.oneof(
    { weight: operation.body ? 8 : 2, arbitrary: fc.record({ text: json, contentType }) },
    { weight: operation.body ? 2 : 6, arbitrary: fc.constant({ text: undefined, contentType: undefined }) },
  );
}

function bodyProblems(
  operation: Operation,
  body: BodyPart,
): { problems: string[]; media: GeneratedRequest['media'] } {
  // Zero bytes without a Content-Type are no body at all (RFC 9110: Content-Length 0).
  if (body.text === undefined || (body.text === '' && body.contentType === undefined)) {
    return { problems: operation.body?.required ? ['the required body is missing'] : [], media: 'ok' };
  }
  const type = body.contentType?.toLowerCase().replaceAll(' ', '');
  if (type !== 'application/json' && type !== 'application/json;charset=utf-8') {
    return { problems: [`a body of ${body.contentType ?? 'no media type'}`], media: 'type' };
  }
  if (Buffer.byteLength(body.text) > BODY_LIMIT) return { problems: ['a body over 64 KiB'], media: 'size' };
  if (!operation.body) return { problems: ['a body the operation does not take'], media: 'ok' };
  if (/"a":1,"a":1/.test(body.text)) return { problems: ['a field given twice'], media: 'ok' };
  let parsed: unknown;
  try {
    parsed = parseJson(body.text);
  } catch {
    return { problems: ['a body that is not JSON'], media: 'ok' };
  }
  return {
    problems: satisfies(operation.body.schema, parsed) ? [] : [`body ${body.text.slice(0, 200)}`],
    media: 'ok',
  };
}

/** Requests for one operation, built from its parameters and body schema, with the oracle's verdict. */
export function requestFor(operation: Operation, pools: Pools): fc.Arbitrary<GeneratedRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === 'header');
  const headerValue = (parameter: Parameter) =>
    parameterText(parameter).filter((text) => /^[\x20-\x7e]*$/.test(text) && text.length <= 1_000);
  return fc
    .record({
      path: fc.tuple(...pathParameters.map((parameter) => pathText(parameter, pools))),
      query: queryParts(operation, pools),
      headers: fc.tuple(
        ...headerParameters.map((parameter) => fc.option(headerValue(parameter), { nil: undefined })),
      ),
      accept: fc.constantFrom(
        undefined,
        undefined,
        undefined,
        'application/json',
        '*/*',
        'text/html',
        'application/x-ndjson',
      ),
      body: bodyPart(operation),
    })
    .map(({ path, query, headers, accept, body }) => {
      const problems: string[] = [];
      let url = operation.template;
      pathParameters.forEach((parameter, index) => {
        const text = path[index]!;
        url = url.replace(`{${parameter.name}}`, encode(text));
        if (!text.isWellFormed() || !textSatisfies(parameter.schema, text))
          problems.push(`path ${parameter.name}=${JSON.stringify(text)}`);
      });
      if (query.length > 0)
        url += `?${query.map(({ name, text }) => `${encode(name)}=${encode(text)}`).join('&')}`;
      problems.push(...queryProblems(operation, query));
      const sent: Record<string, string> = {};
      headerParameters.forEach((parameter, index) => {
        const value = headers[index];
        if (value !== undefined) sent[parameter.name.toLowerCase()] = value;
        if (value !== undefined && !textSatisfies(parameter.schema, value))
          problems.push(`header ${parameter.name}=${JSON.stringify(value)}`);
      });
      if (accept !== undefined) sent.accept = accept;
      if (body.contentType !== undefined) sent['content-type'] = body.contentType;
      const judged = bodyProblems(operation, body);
      problems.push(...judged.problems);
      const request: GeneratedRequest = {
        method: operation.method,
        url,
        headers: sent,
        ...(body.text === undefined ? {} : { body: body.text }),
        problems,
        media: judged.media,
      };
      // How fast-check prints a counterexample: bounded, whatever was generated.
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** A request as a failure shows it: its parts, cut to a few hundred characters each. */
export const describeRequest = (request: GeneratedRequest): string =>
  `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers)} ${
    request.body === undefined ? '(no body)' : JSON.stringify(request.body.slice(0, 300))
  } [${request.problems.length === 0 ? 'valid' : request.problems.map((problem) => problem.slice(0, 200)).join('; ')}]`;
