import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseDocument } from 'yaml';
import { parseJson } from '@petstore/json';
import { CONTRACT_PATH, loadContract } from './contract-source.ts';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'contract-cache-'));
/** The contract as the app reads it, integers as bigint. */
const loadExactContract = async (yaml: string, dir: string) => {
  const { json, document } = await loadContract(yaml, dir);
  assert.deepEqual(document, JSON.parse(json));
  return parseJson(json);
};
const parsed = (file: string) => parseDocument(readFileSync(file, 'utf8'), { intAsBigInt: true }).toJS();

test('contract source: the cached copy read back equals the YAML parse, bigints and all', async () => {
  const dir = fresh();
  const first = await loadExactContract(CONTRACT_PATH, dir);
  assert.equal(readdirSync(dir).length, 1);
  const second = await loadExactContract(CONTRACT_PATH, dir);
  assert.equal(
    (await loadContract(CONTRACT_PATH, dir)).json,
    readFileSync(path.join(dir, readdirSync(dir)[0]!), 'utf8'),
  );
  assert.deepEqual(first, parsed(CONTRACT_PATH));
  assert.deepEqual(second, parsed(CONTRACT_PATH));
});

test('contract source: an edited contract is parsed anew, never served from the older copy', async () => {
  const dir = fresh();
  const yaml = path.join(fresh(), 'petstore.yaml');
  copyFileSync(CONTRACT_PATH, yaml);
  await loadExactContract(yaml, dir);
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/title: Pet Store API/, 'title: Edited API'));
  const edited = (await loadExactContract(yaml, dir)) as { info: { title: string } };
  assert.equal(edited.info.title, 'Edited API');
  assert.equal(readdirSync(dir).length, 2);
});

test('contract source: a cache that cannot be written leaves the contract parsed all the same', async () => {
  const blocker = path.join(fresh(), 'file');
  writeFileSync(blocker, '');
  const exact = await loadExactContract(CONTRACT_PATH, path.join(blocker, 'cache'));
  assert.deepEqual(exact, parsed(CONTRACT_PATH));
});
