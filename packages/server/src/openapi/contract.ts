import { parseJson } from '@petstore/json';
import { loadContract } from './contract-source.ts';
import { dereference, type JsonNode } from './dereference.ts';

/** The parts of an OpenAPI 3.1 document this project reads; everything else is kept as parsed. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export { CONTRACT_PATH } from './contract-source.ts';

const source = await loadContract();

/** The contract as served at `/v1/openapi.json`, with every integer written digit for digit. */
export const openapiJson: string = source.json;

/**
 * The contract as a plain object, `$ref`s intact, for tools that resolve them themselves (Ajv).
 * Integers are JS numbers, so the two int64 bounds are the nearest doubles; `openapiJson` carries
 * their exact digits.
 */
export const openapiDocument = source.document as OpenApiDocument;

let exact: JsonNode | undefined;

/** The contract with its integers as bigint (int64 bounds exact); for pages that show it, read on first use. */
export function exactContract(): JsonNode {
  exact ??= parseJson(openapiJson) as JsonNode;
  return exact;
}

/** The same with every `$ref` resolved, once: what routing, validation and tests read. */
export const contract: OpenApiDocument = dereference(openapiDocument);
