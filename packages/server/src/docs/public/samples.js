// Code samples of an operation, generated from the contract: the request its examples describe, as
// curl, as a call of the typed client (or fetch where the client has no method) and as Python
// `requests`. 64-bit integers stay exact in each: digits in curl's JSON, bigint literals (`3n`) in
// TypeScript, Python's unbounded int.

import { mediaExamples } from './examples.js';
import { stringifyCompact } from './json.js';

/** Prefers an example with an integer beyond 2^53: it shows that every digit survives. */
function pickExample(examples) {
  const hasBig = (value) =>
    typeof value === 'bigint' ||
    (value !== null && typeof value === 'object' && Object.values(value).some(hasBig));
  return (examples.find((example) => hasBig(example.value)) ?? examples[0])?.value;
}

function parameterValue(parameter) {
  return parameter.example ?? parameter.schema?.example ?? parameter.schema?.default;
}

/**
 * The request an operation's examples describe: path parameters filled in, query parameters that are
 * required or have an example, header parameters with an example, and the body example.
 */
export function sampleRequest(op) {
  const pick = (where, wanted) =>
    op.parameters
      .filter((p) => p.in === where && wanted(p) && parameterValue(p) !== undefined)
      .map((p) => ({ name: p.name, value: parameterValue(p), schema: p.schema ?? {} }));
  const media = op.operation.requestBody?.content?.['application/json'];
  return {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    base: op.base,
    path: op.url,
    pathParams: pick('path', () => true),
    query: pick('query', (p) => p.required || p.example !== undefined),
    headers: pick('header', () => true),
    body: media ? pickExample(mediaExamples(media)) : undefined,
    bodySchema: media?.schema,
    secured: op.security.length > 0,
    textResponse: !Object.values(op.operation.responses ?? {}).some((r) => r?.content?.['application/json']),
  };
}

/** The URL of a sample request against `origin`, path parameters and query string filled in. */
export function sampleUrl(request, origin) {
  const path = request.path.replace(/\{([^}]+)\}/g, (_, name) =>
    encodeURIComponent(String(request.pathParams.find((p) => p.name === name)?.value ?? `{${name}}`)),
  );
  const query = new URLSearchParams(request.query.map((p) => [p.name, String(p.value)]));
  return `${origin}${path}${query.size ? `?${query}` : ''}`;
}

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSample(request, origin) {
  const lines = [
    `curl${request.secured ? ' -i' : ''} -X ${request.method} ${shellQuote(sampleUrl(request, origin))}`,
  ];
  if (request.secured) lines.push('-H "Authorization: Bearer $PETSTORE_API_KEY"');
  if (request.body !== undefined) lines.push("-H 'Content-Type: application/json'");
  for (const header of request.headers) lines.push(`-H ${shellQuote(`${header.name}: ${header.value}`)}`);
  if (request.body !== undefined) lines.push(`-d ${shellQuote(stringifyCompact(request.body))}`);
  return lines.join(' \\\n  ');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const camel = (name) => name.toLowerCase().replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/** A TypeScript literal; integers the schema declares int64 (and any bigint) get the `n` suffix. */
export function tsLiteral(value, schema = {}) {
  if (typeof value === 'bigint' || (typeof value === 'number' && schema.format === 'int64'))
    return `${value}n`;
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map((item) => tsLiteral(item, schema.items)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) =>
        `${IDENTIFIER.test(key) ? key : tsLiteral(key)}: ${tsLiteral(item, schema.properties?.[key])}`,
    );
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(value);
}

/** The typed client's call for an operation it has a method for: `method(pathParams…, body, options)`. */
export function clientCall(request) {
  const args = request.pathParams.map((p) => ({ value: p.value, schema: p.schema }));
  if (request.body !== undefined) args.push({ value: request.body, schema: request.bodySchema });
  const options = [...request.query, ...request.headers];
  if (options.length) {
    const value = Object.fromEntries(options.map((p) => [camel(p.name), p.value]));
    const schema = { properties: Object.fromEntries(options.map((p) => [camel(p.name), p.schema])) };
    args.push({ value, schema });
  }
  return { method: request.operationId, args };
}

/** A runnable value for an argument: what the literal in the sample means (int64 fields as bigint). */
export function argumentValue(value, schema = {}) {
  if (typeof value === 'number' && schema.format === 'int64') return BigInt(value);
  if (Array.isArray(value)) return value.map((item) => argumentValue(item, schema.items));
  if (value !== null && typeof value === 'object' && typeof value !== 'bigint') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, argumentValue(item, schema.properties?.[key])]),
    );
  }
  return value;
}

export function typescriptSample(request, origin, clientOperations, install) {
  if (clientOperations.includes(request.operationId)) {
    const { method, args } = clientCall(request);
    const call = args.map(({ value, schema }) => tsLiteral(value, schema));
    const oneLine = `await petstore.${method}(${call.join(', ')})`;
    const invocation =
      oneLine.length <= 80 ? oneLine : `await petstore.${method}(\n  ${call.join(',\n  ')},\n)`;
    return [
      ...(install ? [`// ${install}`] : []),
      "import { createPetstoreClient } from '@petstore/client';",
      '',
      'const petstore = createPetstoreClient({',
      `  baseUrl: ${tsLiteral(`${origin}${request.base}`)},`,
      '  apiKey: process.env.PETSTORE_API_KEY!,',
      '});',
      '',
      `const result = ${invocation};`,
      'console.log(result);',
    ].join('\n');
  }
  const init = [];
  if (request.method !== 'GET') init.push(`method: '${request.method}'`);
  const headers = request.headers.map(
    (header) => `${tsLiteral(header.name)}: ${tsLiteral(String(header.value))}`,
  );
  if (request.secured) headers.unshift('Authorization: `Bearer ${process.env.PETSTORE_API_KEY}`');
  if (headers.length) init.push(`headers: { ${headers.join(', ')} }`);
  const fetchCall = init.length
    ? `await fetch(${tsLiteral(sampleUrl(request, origin))}, {\n  ${init.join(',\n  ')},\n})`
    : `await fetch(${tsLiteral(sampleUrl(request, origin))})`;
  return [
    '// The typed client has no method for this operation; with fetch:',
    `const response = ${fetchCall};`,
    `console.log(response.status, await response.${request.textResponse ? 'text' : 'json'}());`,
  ].join('\n');
}

/** A Python literal: dicts, lists, True/False/None, int of any size, JSON-escaped strings. */
export function pyLiteral(value) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}: ${pyLiteral(item)}`)
    .join(', ')}}`;
}

export function pythonSample(request, origin) {
  const url = sampleUrl({ ...request, query: [] }, origin);
  const args = [JSON.stringify(url)];
  const headers = request.headers.map(
    (header) => `${JSON.stringify(header.name)}: ${JSON.stringify(String(header.value))}`,
  );
  if (request.secured) headers.unshift(`"Authorization": f"Bearer {os.environ['PETSTORE_API_KEY']}"`);
  if (request.query.length)
    args.push(`params=${pyLiteral(Object.fromEntries(request.query.map((p) => [p.name, p.value])))}`);
  if (headers.length) args.push(`headers={${headers.join(', ')}}`);
  if (request.body !== undefined) args.push(`json=${pyLiteral(request.body)}`);
  const read = request.textResponse ? 'response.text' : 'response.json()';
  return [
    ...(request.secured ? ['import os', ''] : []),
    'import requests',
    '',
    `response = requests.${request.method.toLowerCase()}(`,
    ...args.map((arg) => `    ${arg},`),
    ')',
    `print(response.status_code, ${read})${request.textResponse ? '' : "  # Python's int keeps all 64 bits"}`,
  ].join('\n');
}

export const LANGUAGES = [
  { id: 'curl', label: 'curl' },
  { id: 'typescript', label: 'TypeScript' },
  { id: 'python', label: 'Python' },
];

/** Every sample of an operation, by language id. */
export function samples(op, origin, clientOperations, install) {
  const request = sampleRequest(op);
  return {
    request,
    curl: curlSample(request, origin),
    typescript: typescriptSample(request, origin, clientOperations, install),
    python: pythonSample(request, origin),
  };
}
