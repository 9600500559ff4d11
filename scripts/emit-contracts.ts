// Emits both contracts as the server reads them: openapi/petstore.yaml and openapi/manage.yaml as lossless
// JSON (every integer digit for digit, `$ref`s intact) in packages/contract/dist/, beside their generated
// types. `npm run build` (which `npm ci` runs) calls it, so the server never parses YAML; a test fails
// while an emitted file is not what its YAML gives.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringifyJson } from '@petstore/json';

const root = path.resolve(import.meta.dirname, '..');

/** Each contract's YAML and the JSON file it is emitted to (`@petstore/contract/<name>.json`). */
export const CONTRACTS = [
  {
    yaml: path.join(root, 'openapi/petstore.yaml'),
    json: path.join(root, 'packages/contract/dist/petstore.json'),
  },
  {
    yaml: path.join(root, 'openapi/manage.yaml'),
    json: path.join(root, 'packages/contract/dist/manage.json'),
  },
] as const;

/** The JSON text a contract's YAML gives: integers as written (int64 bounds exact), keys in order. */
export async function contractJson(yamlPath: string): Promise<string> {
  const { parseDocument } = await import('yaml');
  const parsed = parseDocument(readFileSync(yamlPath, 'utf8'), { intAsBigInt: true });
  if (parsed.errors.length > 0) throw parsed.errors[0];
  return stringifyJson(parsed.toJS());
}

/** Writes each contract's JSON, renamed into place so that a server starting meanwhile reads a whole file. */
export async function emitContracts(): Promise<string[]> {
  const written: string[] = [];
  for (const contract of CONTRACTS) {
    const json = await contractJson(contract.yaml);
    mkdirSync(path.dirname(contract.json), { recursive: true });
    const partial = `${contract.json}.${process.pid}`;
    writeFileSync(partial, json);
    renameSync(partial, contract.json);
    written.push(path.relative(root, contract.json));
  }
  return written;
}
