import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseJson } from '@petstore/json';
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

/** One of the two contracts: the public API's (openapi/petstore.yaml), the management API's (manage.yaml). */
export type ContractName = 'petstore' | 'manage';

export interface Contract {
  /** The document as served (`/v1/openapi.json`, `/manage/v1/openapi.json`): integers digit for digit, `$ref`s intact. */
  json: string;
  /**
   * The same with every `$ref` resolved: what routing, validation and the tests read. Integers are JS
   * numbers, so the two int64 bounds are the nearest doubles; `json` carries their exact digits.
   */
  document: OpenApiDocument;
}

/**
 * The contract's JSON as the build emitted it (scripts/emit-contracts.ts: `npm ci` runs the build), so
 * that no YAML is parsed at run time and a server runs without openapi/*.yaml beside it.
 */
function readEmitted(name: ContractName): string {
  const specifier = `@petstore/contract/${name}.json`;
  try {
    return readFileSync(fileURLToPath(import.meta.resolve(specifier)), 'utf8');
  } catch (error) {
    throw new Error(`${specifier} is missing: run npm run build (npm ci runs it)`, { cause: error });
  }
}

const read = new Map<ContractName, Contract>();

/** A contract, read and dereferenced on first use (3 to 4 ms), then kept. */
export function readContract(name: ContractName): Contract {
  let contract = read.get(name);
  if (!contract) {
    const json = readEmitted(name);
    contract = { json, document: dereference(JSON.parse(json) as OpenApiDocument) };
    read.set(name, contract);
  }
  return contract;
}

/** The public API's contract (openapi/petstore.yaml). */
export const publicContract = (): Contract => readContract('petstore');

/** The management API's contract (openapi/manage.yaml). */
export const manageContract = (): Contract => readContract('manage');

let exact: JsonNode | undefined;

/** The public contract with its integers as bigint (int64 bounds exact); for pages that show it, read on first use. */
export function exactContract(): JsonNode {
  exact ??= parseJson(publicContract().json) as JsonNode;
  return exact;
}
