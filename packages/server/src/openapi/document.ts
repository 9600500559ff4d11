import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';

/** The parts of an OpenAPI 3.1 document this project reads; everything else is kept as parsed. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

const sourcePath = path.join(import.meta.dirname, '../../../../openapi/petstore.yaml');

// Integers are read as bigints so that the int64 bounds survive into the served JSON digit for digit.
const parsed = parseDocument(readFileSync(sourcePath, 'utf8'), { intAsBigInt: true });
if (parsed.errors.length > 0) throw parsed.errors[0];

// `JSON.rawJSON` (Node 21+) is not in TypeScript's lib yet.
const { rawJSON } = JSON as unknown as { rawJSON(text: string): unknown };

/**
 * The contract as a plain object, for route schemas and response validation. Integers are JS numbers,
 * so the two int64 bounds are the nearest doubles; `openapiJson` carries their exact digits.
 */
export const openapiDocument = parsed.toJS({
  reviver: (_key, value) => (typeof value === 'bigint' ? Number(value) : value),
}) as OpenApiDocument;

/** The contract as served at `/v1/openapi.json`, with every integer written digit for digit. */
export const openapiJson: string = JSON.stringify(parsed.toJS(), (_key, value) =>
  typeof value === 'bigint' ? rawJSON(value.toString()) : value,
);
