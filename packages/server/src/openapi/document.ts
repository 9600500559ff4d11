import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

/** YAML → JSON with every integer written digit for digit (the int64 bounds must survive). */
async function toJson(yamlText: string): Promise<string> {
  const { parseDocument } = await import('yaml');
  const parsed = parseDocument(yamlText, { intAsBigInt: true });
  if (parsed.errors.length > 0) throw parsed.errors[0];
  return JSON.stringify(parsed.toJS(), (_key, value) =>
    typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value,
  );
}

/**
 * Parsing the YAML takes a few hundred milliseconds, so the JSON is kept in a cache file named by the
 * YAML's hash: it is derived, never edited, and a changed document simply misses the cache.
 */
async function load(): Promise<string> {
  const yamlText = readFileSync(sourcePath, 'utf8');
  const hash = createHash('sha256').update(yamlText).digest('hex').slice(0, 32);
  const cacheDir = path.join(tmpdir(), 'petstore-openapi-cache');
  const cacheFile = path.join(cacheDir, `${hash}.json`);
  try {
    return readFileSync(cacheFile, 'utf8');
  } catch {
    const json = await toJson(yamlText);
    try {
      mkdirSync(cacheDir, { recursive: true });
      const partial = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(partial, json);
      renameSync(partial, cacheFile);
    } catch {
      // A read-only or full temporary directory only costs the next start the parse again.
    }
    return json;
  }
}

/** The contract as served at `/v1/openapi.json`, with every integer written digit for digit. */
export const openapiJson: string = await load();

/**
 * The contract as a plain object, for route schemas and response validation. Integers are JS numbers,
 * so the two int64 bounds are the nearest doubles; `openapiJson` carries their exact digits.
 */
export const openapiDocument = JSON.parse(openapiJson) as OpenApiDocument;
