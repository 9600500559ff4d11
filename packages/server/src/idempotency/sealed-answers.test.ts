import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { FakeClock } from '../time/clock.ts';
import { ANSWERS_SECRET_NAME, sealingKey } from './sealed-answers.ts';

/** A `server_secrets` in memory: the first candidate stored under a name wins, as in the table. */
function memorySecrets() {
  const kept = new Map<string, string>();
  let reads = 0;
  return {
    kept,
    reads: () => reads,
    async secret(name: string, candidate: string) {
      reads += 1;
      if (!kept.has(name)) kept.set(name, candidate);
      return kept.get(name)!;
    },
  };
}

test('sealingKey → with the operator’s key, a key derived from it (never that key), nothing stored', async () => {
  const operatorKey = randomBytes(32);
  const secrets = memorySecrets();
  const key = await sealingKey(operatorKey, secrets, new FakeClock())();
  assert.equal(key.length, 32);
  assert.notDeepEqual(key, operatorKey);
  assert.deepEqual(
    await sealingKey(operatorKey, secrets, new FakeClock())(),
    key,
    'the same on every instance',
  );
  assert.equal(secrets.kept.size, 0);
});

test('sealingKey → without one, a key kept in server_secrets under its own name, read once', async () => {
  const secrets = memorySecrets();
  const read = sealingKey(undefined, secrets, new FakeClock());
  const key = await read();
  assert.equal(key.length, 32);
  assert.deepEqual(await read(), key);
  assert.equal(secrets.reads(), 1);
  assert.deepEqual(Buffer.from(secrets.kept.get(ANSWERS_SECRET_NAME)!, 'base64url'), key);
});
