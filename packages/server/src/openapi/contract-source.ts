import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringifyJson } from '@petstore/json';
import type { JsonNode } from './dereference.ts';

export const CONTRACT_PATH = path.join(import.meta.dirname, '../../../../openapi/petstore.yaml');

/**
 * Parsed contracts, one file per YAML content digest. Parsing the YAML (and loading its parser) is the
 * dearest step of start-up; its lossless JSON is read back in a few milliseconds. A digest names each
 * file, so an edited contract is parsed anew and a stale copy is never read.
 */
export const CONTRACT_CACHE_DIR = path.join(import.meta.dirname, '../../../../node_modules/.cache/petstore');

/** The YAML with every integer as bigint, so the int64 bounds keep their digits. */
async function parseYaml(text: string): Promise<JsonNode> {
  const { parseDocument } = await import('yaml');
  const parsed = parseDocument(text, { intAsBigInt: true });
  if (parsed.errors.length > 0) throw parsed.errors[0];
  return parsed.toJS() as JsonNode;
}

/** The lossless JSON text of the contract and its plain parse, or undefined for an unreadable copy. */
export interface ContractSource {
  /** Every integer written digit for digit (int64 bounds exact). */
  json: string;
  /** The same parsed by JSON.parse: integers are JS numbers. */
  document: unknown;
}

function readCache(file: string): ContractSource | undefined {
  try {
    const json = readFileSync(file, 'utf8');
    return { json, document: JSON.parse(json) };
  } catch {
    return undefined;
  }
}

/** Best effort: a read-only installation parses the YAML at every start instead. */
function writeCache(file: string, json: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, json);
    renameSync(partial, file);
  } catch {
    // not cached
  }
}

/**
 * The contract as lossless JSON: from the cache when it holds this exact YAML, else parsed and cached.
 * The cached text is served as it is (no parse and re-serialisation at start-up); the test of this
 * module checks that it reads back equal to the YAML's parse.
 */
export async function loadContract(
  yamlPath = CONTRACT_PATH,
  cacheDir = CONTRACT_CACHE_DIR,
): Promise<ContractSource> {
  const text = readFileSync(yamlPath, 'utf8');
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 32);
  const file = path.join(cacheDir, `contract-${digest}.json`);
  const cached = readCache(file);
  if (cached) return cached;
  const json = stringifyJson(await parseYaml(text));
  writeCache(file, json);
  return { json, document: JSON.parse(json) };
}
