import path from 'node:path';
import { loadContract } from './contract-source.ts';
import type { OpenApiDocument } from './contract.ts';
import { dereference } from './dereference.ts';

export const MANAGE_CONTRACT_PATH = path.join(import.meta.dirname, '../../../../openapi/manage.yaml');

let loaded: Promise<{ json: string; document: OpenApiDocument }> | undefined;

/**
 * The management API's contract (openapi/manage.yaml), read on first use and cached like the public
 * one: its lossless JSON (served at /manage/v1/openapi.json) and its dereferenced parse (routes,
 * validation, tests).
 */
export function manageContract(): Promise<{ json: string; document: OpenApiDocument }> {
  loaded ??= loadContract(MANAGE_CONTRACT_PATH).then((source) => ({
    json: source.json,
    document: dereference(source.document as OpenApiDocument),
  }));
  return loaded;
}
