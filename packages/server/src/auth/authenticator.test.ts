import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiKeyRecord } from '../storage/records.ts';
import { FakeClock } from '../time/clock.ts';
import { createAuthenticator } from './authenticator.ts';
import { generateKey } from './keys.ts';

/** An authenticator over keys held in memory, counting the lookups that reach the "database". */
function authenticatorOver(count: number, maxEntries: number) {
  const keys = Array.from({ length: count }, () => generateKey('test'));
  const byDigest = new Map(
    keys.map(({ id, digest }) => [digest, { id, digest, revokedAt: null, expiresAt: null } as ApiKeyRecord]),
  );
  const lookups: string[] = [];
  const authenticator = createAuthenticator({
    keys: {
      async findKeyByDigest(digest) {
        lookups.push(digest);
        return byDigest.get(digest);
      },
    },
    clock: new FakeClock(),
    environment: 'test',
    changeToken: () => 1,
    maxEntries,
  });
  const use = (n: number) => authenticator.authenticate(`Bearer ${keys[n]!.secret}`);
  return { use, lookups };
}

test('authenticator → a full cache drops its least recently used key alone, never every key', async () => {
  const { use, lookups } = authenticatorOver(4, 3);
  for (const n of [0, 1, 2]) assert.ok(await use(n));
  assert.equal(lookups.length, 3);
  assert.ok(await use(0), 'used again: now the most recent');
  assert.ok(await use(3), 'a fourth key: key 1 is dropped');
  assert.equal(lookups.length, 4);
  for (const n of [0, 2, 3]) assert.ok(await use(n));
  assert.equal(lookups.length, 4, 'the other keys stayed cached');
  assert.ok(await use(1));
  assert.equal(lookups.length, 5);
});

test('authenticator → keys in rotation within the bound are each looked up once', async () => {
  const { use, lookups } = authenticatorOver(500, 1_000);
  for (let round = 0; round < 3; round++) for (let n = 0; n < 500; n++) assert.ok(await use(n));
  assert.equal(lookups.length, 500);
});
