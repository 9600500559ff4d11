import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../../test/manage-support.ts';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;

/** Get, change and unban a key, and the plan's cap on keys, through /manage on both databases. */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: a key's get, change, unban and cap (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let owner: TokenHolder;
    let developer: TokenHolder;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-manage-doors-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
      owner = await tokenHolder(app, ['doors', 'capped']);
      developer = await tokenHolder(app, ['doors'], { role: 'developer' });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const keysUrl = (slug: string) => `/manage/v1/projects/${slug}/keys`;
    const create = async (slug: string, body: Json = {}) => {
      const response = await app.request({ method: 'POST', url: keysUrl(slug), key: owner.token, body });
      assert.equal(response.status, 201, response.body);
      return json(response.body) as { key: Json; secret: string };
    };

    it(
      'GET …/keys/{keyId} → 200 the key with its state; another project’s or an unknown id → 404',
      { skip },
      async () => {
        const { key } = await create('doors', { label: 'one' });
        const got = await app.request({ url: `${keysUrl('doors')}/${key.id as string}`, key: owner.token });
        assert.equal(got.status, 200);
        assert.deepEqual(json(got.body), key);
        assert.equal(json(got.body).state, 'active');
        assert.equal(json(got.body).stateUntil, null);
        const other = await app.request({
          url: `${keysUrl('capped')}/${key.id as string}`,
          key: owner.token,
        });
        assert.equal(other.status, 404);
        const unknown = await app.request({ url: `${keysUrl('doors')}/key_nope`, key: owner.token });
        assert.equal(json(unknown.body).code, 'not_found');
      },
    );

    it(
      'PATCH …/keys/{keyId} → 200 label and own limits changed, applied on /v1 at once; null clears',
      { skip },
      async () => {
        const { key, secret } = await create('doors', { label: 'old' });
        const url = `${keysUrl('doors')}/${key.id as string}`;
        const changed = await app.request({
          method: 'PATCH',
          url,
          key: developer.token,
          body: { label: 'new', perMinute: 5 },
        });
        assert.equal(changed.status, 200, changed.body);
        assert.equal(json(changed.body).label, 'new');
        assert.deepEqual(json(changed.body).ownLimits, { perMinute: 5, perDay: null });
        const pets = await app.request({ url: '/v1/pets', key: secret });
        assert.equal(pets.headers['x-ratelimit-limit'], '5');
        const cleared = await app.request({
          method: 'PATCH',
          url,
          key: owner.token,
          body: { perMinute: null },
        });
        assert.deepEqual(json(cleared.body).ownLimits, { perMinute: null, perDay: null });
        assert.equal(json(cleared.body).label, 'new', 'a field not given stays');
        const high = await app.request({ method: 'PATCH', url, key: owner.token, body: { perDay: 1_001 } });
        assert.equal(high.status, 400);
        assert.equal(json(high.body).param, 'perDay');
        const empty = await app.request({ method: 'PATCH', url, key: owner.token, body: {} });
        assert.equal(empty.status, 200, 'an empty change changes nothing');
        assert.equal(json(empty.body).label, 'new');
        await app.request({ method: 'DELETE', url, key: owner.token });
        const revoked = await app.request({ method: 'PATCH', url, key: owner.token, body: { label: 'x' } });
        assert.equal(revoked.status, 409);
        assert.equal(json(revoked.body).code, 'conflict');
      },
    );

    it(
      'POST …/keys/{keyId}/unban → banned (until …) in the API; a developer 403; an owner lifts it, audited',
      { skip },
      async () => {
        const { key, secret } = await create('doors', { label: 'noisy', perMinute: 1 });
        const url = `${keysUrl('doors')}/${key.id as string}`;
        const answers = [];
        for (let i = 0; i < 32; i++) answers.push(await app.request({ url: '/v1/pets', key: secret }));
        assert.equal(answers[0]!.status, 200, JSON.stringify(answers[0]!.headers));
        const banned = json((await app.request({ url, key: owner.token })).body);
        assert.equal(banned.state, 'banned');
        assert.equal(banned.stateUntil, banned.bannedUntil);
        assert.ok(banned.stateUntil);
        const refused = await app.request({ method: 'POST', url: `${url}/unban`, key: developer.token });
        assert.equal(refused.status, 403);
        assert.equal(json(refused.body).code, 'forbidden');
        const lifted = await app.request({ method: 'POST', url: `${url}/unban`, key: owner.token });
        assert.equal(lifted.status, 200);
        assert.equal(json(lifted.body).state, 'active');
        assert.equal(json(lifted.body).bannedUntil, null);
        app.clock.advance(60_000);
        const again = await app.request({ url: '/v1/pets', key: secret });
        assert.equal(again.status, 200, again.body);
        const audit = json(
          (await app.request({ url: '/manage/v1/projects/doors/audit?limit=200', key: owner.token })).body,
        );
        const actions = (audit.data as Json[]).map((event) => event.action);
        assert.ok(actions.includes('key_unbanned'));
        assert.ok(actions.includes('key_updated'));
      },
    );

    it(
      'POST …/keys beyond the Free plan’s 10 keys in use → 409 key_limit_reached; a revoke makes room; a roll is not counted',
      { skip },
      async () => {
        const keys = [];
        for (let i = 0; i < 10; i++) keys.push((await create('capped', { label: `k${i}` })).key);
        const over = await app.request({
          method: 'POST',
          url: keysUrl('capped'),
          key: owner.token,
          body: {},
        });
        assert.equal(over.status, 409);
        assert.equal(json(over.body).code, 'key_limit_reached');
        assert.match(json(over.body).message as string, /free plan allows 10 keys/);
        const rolled = await app.request({
          method: 'POST',
          url: `${keysUrl('capped')}/${keys[0]!.id as string}/roll`,
          key: owner.token,
        });
        assert.equal(rolled.status, 201, 'a roll replaces a key');
        await app.request({
          method: 'DELETE',
          url: `${keysUrl('capped')}/${keys[1]!.id as string}`,
          key: owner.token,
        });
        await app.request({
          method: 'DELETE',
          url: `${keysUrl('capped')}/${keys[2]!.id as string}`,
          key: owner.token,
        });
        await create('capped', { label: 'room again' });
      },
    );
  });
}
