import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KeyUse } from '../src/features/keys/key-repository.ts';
import { eventually } from './eventually.ts';
import { makeTestApp, type TestApp } from './harness.ts';

/**
 * "Last used" through the app (auth/key-usage.ts): requests never wait for its write, and a key's use
 * is written at most once a minute, with the uses of other keys in one statement.
 */
describe('last used: written in batches, off the request path, once a minute per key', () => {
  let app: TestApp;
  const writes: KeyUse[][] = [];
  let release: () => void = () => {};

  before(async () => {
    app = await makeTestApp();
    const touch = app.storage.keys.touch.bind(app.storage.keys);
    // The first write is held until released: requests answered meanwhile did not wait for it.
    let held = true;
    app.storage.keys.touch = async (uses) => {
      writes.push([...uses]);
      if (held) {
        held = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return touch(uses);
    };
  });
  after(() => app.close());

  it('GET /v1/pets × 50 with three keys → 200 each while the write waits; one write of three uses; a minute later, one more', async () => {
    const keys = [await app.createKey('pro'), await app.createKey('pro'), await app.createKey('pro')];
    const t0 = app.clock.now();
    for (let i = 0; i < 50; i++) {
      const response = await app.request({ url: '/v1/pets', key: keys[i % 3]!.secret });
      assert.equal(response.status, 200);
    }
    await eventually(async () => writes.length === 1);
    assert.equal(writes[0]!.length, 3, 'the three keys in one call');
    assert.ok(writes[0]!.every((use) => use.at === t0));
    for (let i = 0; i < 20; i++) {
      assert.equal((await app.request({ url: '/v1/pets', key: keys[0]!.secret })).status, 200);
    }
    release();
    const lastUsed = async () =>
      (await app.storage.sql.all('SELECT last_used_at FROM api_key_uses WHERE key_id = $1', [keys[1]!.id]))[0]
        ?.last_used_at;
    await eventually(async () => Number(await lastUsed()) === t0);
    app.clock.advance(30_000);
    assert.equal((await app.request({ url: '/v1/pets', key: keys[1]!.secret })).status, 200);
    app.clock.advance(30_000);
    assert.equal((await app.request({ url: '/v1/pets', key: keys[2]!.secret })).status, 200);
    await app.close();
    assert.deepEqual(
      writes.slice(1),
      [[{ id: keys[2]!.id, at: t0 + 60_000 }]],
      'within the minute: nothing; at the minute: that key alone',
    );
  });
});
