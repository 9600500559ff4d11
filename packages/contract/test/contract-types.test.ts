import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import {
  contractTypes,
  MANAGE_TYPES_FILE,
  manageTypes,
  TYPES_FILE,
} from '../../../scripts/generate-contract-types.ts';

test('packages/contract/src/index.d.ts is what openapi/petstore.yaml gives (npm run generate:types)', async () => {
  assert.equal(
    await readFile(TYPES_FILE, 'utf8'),
    await contractTypes(),
    'stale: run npm run generate:types',
  );
});

test('packages/contract/src/manage.d.ts is what openapi/manage.yaml gives (npm run generate:types)', async () => {
  assert.equal(
    await readFile(MANAGE_TYPES_FILE, 'utf8'),
    await manageTypes(),
    'stale: run npm run generate:types',
  );
});
