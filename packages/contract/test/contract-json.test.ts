import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { CONTRACTS, contractJson } from '../../../scripts/emit-contracts.ts';

for (const { yaml, json } of CONTRACTS) {
  const name = path.basename(json);
  test(`packages/contract/dist/${name} is what ${path.basename(yaml)} gives (npm run build)`, async () => {
    const emitted = await readFile(json, 'utf8').catch(() => undefined);
    assert.ok(emitted !== undefined, `${name} is missing: run npm run build`);
    assert.equal(emitted, await contractJson(yaml), `${name} is stale: run npm run build`);
  });
}
