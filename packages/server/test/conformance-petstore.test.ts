import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseJson } from '@petstore/json';
import { publicContract } from '../src/openapi/contract.ts';
import { FUZZ, fuzzOperation, type FuzzTarget } from './conformance/run.ts';
import { operationsOf } from './conformance/operations.ts';
import { readBack } from './conformance/read-back.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';

const operations = operationsOf(publicContract().document);

/**
 * Schemathesis-style generated checks of openapi/petstore.yaml (conformance/run.ts): every operation
 * gets requests drawn from its schemas, valid and mutated, sent in-process with a key of a project, so
 * that the request log keeps what each request was answered; every answer is held to the contract, a
 * refused request creates no pet, and the pets and the request log read back valid (the log through the
 * management API, each row against LoggedRequest: the messages that quote what a client sent too).
 */
describe(`openapi/petstore.yaml: generated requests for every operation (${FUZZ.runs} each, seed ${FUZZ.seed})`, () => {
  let app: TestApp;
  let owner: TokenHolder;
  let key: string;
  const pools = new Map<string, string[]>([['petId', ['1']]]);

  before(async () => {
    app = await makeTestApp();
    owner = await tokenHolder(app, ['acme'], { expiresInDays: 365 });
    // Limits no run reaches: what is tested is each answer, not the rate limiter.
    await app.storage.projects.setPlan('acme', 'enterprise', 1_000_000_000, 1_000_000_000);
    const created = await app.request({
      method: 'POST',
      url: '/manage/v1/projects/acme/keys',
      key: owner.token,
      body: { label: 'generated requests' },
    });
    key = (JSON.parse(created.body) as { secret: string }).secret;
  });
  after(() => app.close());

  const target = (): FuzzTarget => ({
    app,
    credential: (operation) => (operation.open ? undefined : key),
    pools: (name) => pools.get(name) ?? [],
    async fingerprint() {
      const [row] = await app.storage.sql.all(
        'SELECT (SELECT count(*) FROM pets) AS pets, (SELECT count(*) FROM idempotency_keys) AS replays',
      );
      return Object.values(row!).join(' ');
    },
    harvest(operation, answer) {
      const add = (pool: string, value: string) => pools.set(pool, [...(pools.get(pool) ?? []), value]);
      if (operation.operationId === 'createPet' && answer.status === 201) {
        add('petId', String((parseJson(answer.body) as { id: bigint }).id));
      }
      const cursor = /[?&]cursor=([^&>]+)/.exec(answer.headers.link ?? '')?.[1];
      if (cursor !== undefined) add('?cursor', cursor);
    },
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.template} (${operation.operationId}) → every answer as the contract says`, async () => {
      await fuzzOperation(target(), operation);
    });
  }

  it('what the run stored reads back within the contract: every page of pets, every pet, the request log', async () => {
    const read = await readBack(
      app,
      [
        ['/v1/pets?limit=100', key],
        ['/manage/v1/projects/acme/requests?limit=200', owner.token],
      ],
      owner.token,
    );
    for (const petId of pools.get('petId')!.slice(1)) {
      const pet = await app.request({ url: `/v1/pets/${petId}`, key });
      assert.equal(pet.status, 200, pet.body);
    }
    assert.ok(read.rows > operations.length, `${read.rows} rows read back`);
  });
});
