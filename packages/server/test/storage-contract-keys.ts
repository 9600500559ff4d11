import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import type { NewApiKey } from '../src/storage/records.ts';
import { undoThrough } from './request-log-migration-checks.ts';
import type { StorageFixture } from './storage-contract.ts';

const T0 = Date.UTC(2026, 0, 1);

export function newKey(id: string, overrides: Partial<NewApiKey> = {}): NewApiKey {
  return {
    id,
    digest: createHash('sha256').update(`secret-${id}`).digest('hex'),
    projectId: null,
    prefix: null,
    plan: 'free',
    perMinute: null,
    perDay: null,
    label: null,
    environment: 'test',
    createdAt: T0,
    expiresAt: null,
    ...overrides,
  };
}

export function keyContract(fixture: () => StorageFixture): void {
  it('keys.create → the record has every field, nothing revoked or banned', async () => {
    const { storage } = fixture();
    const input = newKey('key_1', {
      plan: 'enterprise',
      perMinute: 5_000,
      perDay: 10_000_000_000,
      label: 'ops "main" ✓',
      environment: 'live',
      expiresAt: T0 + 86_400_000,
    });
    const created = await storage.keys.create(input);
    assert.deepEqual(created, {
      ...input,
      ownPerMinute: null,
      ownPerDay: null,
      revokedAt: null,
      bannedUntil: null,
      banLiftedAt: null,
      lastUsedAt: null,
      rolledAt: null,
      rolledTo: null,
    });
    assert.deepEqual(await storage.keys.get('key_1'), created);
    const { lastUsedAt: _lastUse, ...authenticated } = created;
    assert.deepEqual(await storage.keys.findByDigest(input.digest), authenticated, 'all but its last use');
    assert.equal(await storage.keys.get('key_missing'), undefined);
    assert.equal(await storage.keys.findByDigest('0'.repeat(64)), undefined);
  });

  it('keys.create → a second key with the same digest is refused', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    await assert.rejects(storage.keys.create({ ...newKey('key_2'), digest: newKey('key_1').digest }));
  });

  it('keys.list → every key in creation order', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_b', { createdAt: T0 + 2 }));
    await storage.keys.create(newKey('key_a', { createdAt: T0 + 1 }));
    await storage.keys.create(newKey('key_c', { createdAt: T0 + 3 }));
    assert.deepEqual(
      (await storage.keys.list()).map((key) => key.id),
      ['key_a', 'key_b', 'key_c'],
    );
  });

  it('keys.revoke → sets revokedAt once; false for an unknown key', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    assert.equal(await storage.keys.revoke('key_1', T0 + 10), true);
    assert.equal(await storage.keys.revoke('key_1', T0 + 20), true);
    assert.equal((await storage.keys.get('key_1'))!.revokedAt, T0 + 10);
    assert.equal(await storage.keys.revoke('key_missing', T0), false);
  });

  it('keys.setPlan → changes plan and custom limits; false for an unknown key', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    assert.equal(await storage.keys.setPlan('key_1', 'enterprise', 2_000, 3_000_000), true);
    const key = (await storage.keys.get('key_1'))!;
    assert.deepEqual([key.plan, key.perMinute, key.perDay], ['enterprise', 2_000, 3_000_000]);
    assert.equal(await storage.keys.setPlan('key_1', 'pro', null, null), true);
    const pro = (await storage.keys.get('key_1'))!;
    assert.deepEqual([pro.plan, pro.perMinute, pro.perDay], ['pro', null, null]);
    assert.equal(await storage.keys.setPlan('key_missing', 'pro', null, null), false);
  });

  it('keys.ban / keys.unban → bannedUntil set, then cleared with banLiftedAt recorded', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    assert.equal(await storage.keys.ban('key_1', T0 + 900_000), true);
    assert.equal((await storage.keys.get('key_1'))!.bannedUntil, T0 + 900_000);
    assert.equal(await storage.keys.unban('key_1', T0 + 60_000), true);
    const key = (await storage.keys.get('key_1'))!;
    assert.equal(key.bannedUntil, null);
    assert.equal(key.banLiftedAt, T0 + 60_000);
    assert.equal(await storage.keys.ban('key_missing', T0), false);
    assert.equal(await storage.keys.unban('key_missing', T0), false);
  });

  it('keys.listPage → creation order (created_at, then id) from after the last key of the previous page, at most the limit', async () => {
    const { storage } = fixture();
    for (const [id, createdAt] of [
      ['key_c', T0],
      ['key_a', T0],
      ['key_b', T0 + 1],
      ['key_d', T0 - 1],
    ] as const) {
      await storage.keys.create(newKey(id, { createdAt }));
    }
    const first = await storage.keys.listPage({ limit: 2 });
    assert.deepEqual(
      first.map((key) => key.id),
      ['key_d', 'key_a'],
    );
    const last = first.at(-1)!;
    const next = await storage.keys.listPage({
      after: { createdAt: last.createdAt, id: last.id },
      limit: 10,
    });
    assert.deepEqual(
      next.map((key) => key.id),
      ['key_c', 'key_b'],
    );
    assert.deepEqual(
      await storage.keys.listPage({ after: { createdAt: T0 + 1, id: 'key_b' }, limit: 10 }),
      [],
    );
  });

  it('keys.touch → lastUsedAt moves forward only; an unknown key is no error; a thousand keys in one call', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    await storage.keys.touch([{ id: 'key_1', at: T0 + 60_000 }]);
    assert.equal((await storage.keys.get('key_1'))!.lastUsedAt, T0 + 60_000);
    await storage.keys.touch([{ id: 'key_1', at: T0 + 30_000 }]);
    assert.equal((await storage.keys.get('key_1'))!.lastUsedAt, T0 + 60_000, 'an older use does not win');
    await storage.keys.touch([
      { id: 'key_missing', at: T0 },
      { id: 'key_1', at: T0 + 120_000 },
    ]);
    assert.equal((await storage.keys.get('key_1'))!.lastUsedAt, T0 + 120_000);
    await storage.keys.touch([]);
    const many = Array.from({ length: 1_200 }, (_, n) => `key_m${String(n).padStart(4, '0')}`);
    for (const id of many.slice(0, 3)) await storage.keys.create(newKey(id));
    await storage.keys.touch(many.map((id, n) => ({ id, at: T0 + n })));
    assert.equal((await storage.keys.get(many[2]!))!.lastUsedAt, T0 + 2);
  });

  it('keys.touch beside an earlier version writing api_keys.last_used_at (a rolling upgrade) → the later use wins, in get and list', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    await storage.keys.create(newKey('key_2'));
    await storage.keys.touch([{ id: 'key_1', at: T0 + 60_000 }]);
    await storage.sql.run('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', ['key_1', T0 + 90_000]);
    await storage.sql.run('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', ['key_2', T0 + 5]);
    const lastUses = async () => ({
      get: (await storage.keys.get('key_1'))!.lastUsedAt,
      list: (await storage.keys.list()).map((k) => [k.id, k.lastUsedAt]),
    });
    assert.deepEqual(await lastUses(), {
      get: T0 + 90_000,
      list: [
        ['key_1', T0 + 90_000],
        ['key_2', T0 + 5],
      ],
    });
    await storage.keys.touch([
      { id: 'key_1', at: T0 + 120_000 },
      { id: 'key_2', at: T0 + 1 },
    ]);
    assert.deepEqual((await lastUses()).list, [
      ['key_1', T0 + 120_000],
      ['key_2', T0 + 5],
    ]);
  });

  it('migration 230 → each key keeps its last use, moved to api_key_uses; undone → back in api_keys', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    await storage.keys.create(newKey('key_2'));
    await storage.keys.touch([{ id: 'key_1', at: T0 + 60_000 }]);
    await undoThrough(storage, '230_key_uses');
    const column = async () =>
      (await storage.sql.all('SELECT id, last_used_at FROM api_keys ORDER BY id')).map((row) => [
        row.id,
        row.last_used_at === null ? null : Number(row.last_used_at),
      ]);
    assert.deepEqual(await column(), [
      ['key_1', T0 + 60_000],
      ['key_2', null],
    ]);
    await storage.migrate();
    assert.equal((await storage.keys.get('key_1'))!.lastUsedAt, T0 + 60_000);
    assert.equal((await storage.keys.get('key_2'))!.lastUsedAt, null);
    assert.deepEqual(
      (await storage.sql.all('SELECT key_id, last_used_at FROM api_key_uses')).map((row) => [
        row.key_id,
        Number(row.last_used_at),
      ]),
      [['key_1', T0 + 60_000]],
    );
  });
}
