import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { contractTypes, TYPES_FILE } from '../../../scripts/generate-contract-types.ts';

test('packages/contract/src/index.d.ts is what openapi/petstore.yaml gives (npm run generate:types)', async () => {
  assert.equal(
    await readFile(TYPES_FILE, 'utf8'),
    await contractTypes(),
    'stale: run npm run generate:types',
  );
});
