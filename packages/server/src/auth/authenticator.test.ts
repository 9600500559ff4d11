import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangeBatch } from '../changes/feed.ts';
import type { HostChange } from '../storage/change-records.ts';
import type { ApiKeyRecord } from '../storage/records.ts';
import { FakeClock } from '../time/clock.ts';
import { createAuthenticator } from './authenticator.ts';
import { generateKey } from './keys.ts';

/** A change feed told by hand: `tell` hands a batch to the subscribers, as a read of the feed would. */
function handFeed() {
  const subscribers: ((batch: ChangeBatch) => void)[] = [];
  let epoch = 0;
  const feed = {
    reads: 0,
    failing: false,
    /** A notification arrived (another instance's change) that no read has covered yet. */
    notified: false,
    pending: [] as HostChange[],
    started: () => true,
    problem: () => (feed.failing ? 'down' : undefined),
    epoch: () => epoch,
    subscribe: (apply: (batch: ChangeBatch) => void) => void subscribers.push(apply),
    tell(batch: ChangeBatch) {
      epoch++;
      for (const apply of subscribers) apply(batch);
    },
    async catchUp() {
      feed.reads++;
      if (feed.failing) throw new Error('down');
      feed.notified = false;
      const batch = feed.pending;
      feed.pending = [];
      if (batch.length > 0) feed.tell(batch);
    },
    behind: () => feed.notified,
    applyNotified: () => feed.catchUp(),
  };
  return feed;
}

const change = (fields: Partial<HostChange>): HostChange => ({
  seq: 1,
  projectId: null,
  slug: null,
  hostname: null,
  keyId: null,
  accountId: null,
  ...fields,
});

/** An authenticator over keys held in memory, counting the lookups that reach the "database". */
function authenticatorOver(count: number, maxEntries = 1_000) {
  const keys = Array.from({ length: count }, () => generateKey('test'));
  const byDigest = new Map(
    keys.map(({ id, digest }, n) => [
      digest,
      { id, digest, projectId: `prj_${n % 2}`, revokedAt: null, expiresAt: null } as ApiKeyRecord,
    ]),
  );
  const lookups: string[] = [];
  const feed = handFeed();
  const clock = new FakeClock();
  let mark = 1;
  const authenticator = createAuthenticator({
    keys: {
      async findByDigest(digest) {
        lookups.push(digest);
        return byDigest.get(digest);
      },
    },
    clock,
    environment: 'test',
    feed,
    writeMark: () => mark,
    maxEntries,
  });
  const use = (n: number) => authenticator.authenticate(`Bearer ${keys[n]!.secret}`);
  const revoke = (n: number) => {
    const record = byDigest.get(keys[n]!.digest)!;
    byDigest.set(record.digest, { ...record, revokedAt: clock.now() });
  };
  /** A write committed somewhere: the feed holds its change, and the write mark moves. */
  const committed = (fields: Partial<HostChange>) => {
    feed.pending.push(change(fields));
    mark++;
  };
  /** A change committed by another instance, announced by its notification: the write mark stays. */
  const notified = (fields: Partial<HostChange>) => {
    feed.pending.push(change(fields));
    feed.notified = true;
  };
  return { use, lookups, keys, feed, clock, revoke, committed, notified, authenticator };
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

test('authenticator → a revoked key is refused from the next request; only its entry is looked up again', async () => {
  const { use, lookups, keys, revoke, committed } = authenticatorOver(10);
  for (let n = 0; n < 10; n++) assert.ok(await use(n));
  revoke(3);
  committed({ keyId: keys[3]!.id });
  assert.equal(await use(3), undefined);
  for (let n = 0; n < 10; n++) if (n !== 3) assert.ok(await use(n));
  assert.equal(lookups.length, 11, 'one lookup again: the revoked key');
});

test('authenticator → a key revoked by another instance, once its notification has arrived → refused by the next request', async () => {
  const { use, lookups, keys, feed, revoke, notified } = authenticatorOver(4);
  for (let n = 0; n < 4; n++) assert.ok(await use(n));
  revoke(2);
  assert.ok(await use(2), 'no notification yet: answered from the cache');
  notified({ keyId: keys[2]!.id });
  assert.equal(await use(2), undefined, 'the notification is applied before the answer');
  assert.equal(feed.notified, false);
  for (const n of [0, 1, 3]) assert.ok(await use(n));
  assert.equal(lookups.length, 5, 'one lookup again: the revoked key');
});

test('authenticator → a write elsewhere that is no key change (a pet, a domain) drops nothing', async () => {
  const { use, lookups, feed, committed } = authenticatorOver(4);
  for (let n = 0; n < 4; n++) await use(n);
  committed({ projectId: 'prj_0', hostname: 'docs.example.com' });
  committed({});
  for (let n = 0; n < 4; n++) assert.ok(await use(n));
  assert.equal(lookups.length, 4);
  assert.equal(feed.reads, 1, 'the feed is read once per moved write mark, not per request');
});

test("authenticator → a project's change (plan, limits) drops its keys alone", async () => {
  const { use, lookups, committed } = authenticatorOver(6);
  for (let n = 0; n < 6; n++) await use(n);
  committed({ projectId: 'prj_1', slug: 'one' });
  for (let n = 0; n < 6; n++) await use(n);
  assert.equal(lookups.length, 9, 'keys 1, 3 and 5 (project 1) looked up again');
});

test('authenticator → the whole feed missed ("all") drops every entry', async () => {
  const { use, lookups, feed } = authenticatorOver(3);
  for (let n = 0; n < 3; n++) await use(n);
  feed.tell('all');
  for (let n = 0; n < 3; n++) await use(n);
  assert.equal(lookups.length, 6);
});

test('authenticator → while the feed cannot be read, a record is trusted for the short lifetime only', async () => {
  const { use, lookups, feed, clock, committed } = authenticatorOver(1);
  await use(0);
  feed.failing = true;
  committed({ keyId: 'key_other' });
  assert.ok(await use(0));
  assert.equal(lookups.length, 1, 'within ttlMs');
  clock.advance(1_000);
  assert.ok(await use(0));
  assert.equal(lookups.length, 2, 'past ttlMs: looked up again');
});

test('authenticator → a change told while a lookup was in flight: answered, not cached', async () => {
  const { use, lookups, feed, keys } = authenticatorOver(1);
  const first = use(0);
  feed.tell([change({ keyId: keys[0]!.id })]);
  assert.ok(await first);
  await use(0);
  assert.equal(lookups.length, 2);
});

test('authenticator → an unknown secret is cached for the short lifetime only', async () => {
  const { lookups, clock, authenticator } = authenticatorOver(1);
  const stranger = `Bearer ${generateKey('test').secret}`;
  assert.equal(await authenticator.authenticate(stranger), undefined);
  assert.equal(await authenticator.authenticate(stranger), undefined);
  assert.equal(lookups.length, 1);
  clock.advance(1_000);
  await authenticator.authenticate(stranger);
  assert.equal(lookups.length, 2);
});

test('authenticator → forget(keyId) drops that key alone', async () => {
  const { use, lookups, keys, authenticator } = authenticatorOver(2);
  await use(0);
  await use(1);
  authenticator.forget(keys[0]!.id);
  await use(0);
  await use(1);
  assert.equal(lookups.length, 3);
});
