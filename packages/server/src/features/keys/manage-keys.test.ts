import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../../test/manage-support.ts';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;

/** The keys of the management API on SQLite and PostgreSQL: the same service, the same answers. */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: keys (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let owner: TokenHolder;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-manage-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
      owner = await tokenHolder(app, ['acme']);
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const create = (body: unknown = {}, token = owner.token) =>
      app.request({ method: 'POST', url: '/manage/v1/projects/acme/keys', key: token, body });

    it(
      'POST /manage/v1/projects/{slug}/keys → 201 with the secret once; the key works on /v1',
      { skip },
      async () => {
        const expiresAt = new Date(app.clock.now() + 86_400_000).toISOString();
        const response = await create({ label: 'CI', expiresAt, perMinute: 10 });
        assert.equal(response.status, 201);
        const body = json(response.body);
        const key = body.key as Json;
        assert.equal(key.label, 'CI');
        assert.equal(key.expiresAt, expiresAt);
        assert.deepEqual(key.ownLimits, { perMinute: 10, perDay: null });
        assert.deepEqual(key.limits, { perMinute: 10, perDay: 1_000 });
        const pets = await app.request({ url: '/v1/pets', key: body.secret as string });
        assert.equal(pets.status, 200);
        assert.equal(pets.headers['x-ratelimit-limit'], '10');
      },
    );

    it(
      'POST …/keys → 400 invalid_body when own limits exceed the plan, or expiry is past',
      { skip },
      async () => {
        const high = await create({ perMinute: 61 });
        assert.equal(high.status, 400);
        assert.equal(json(high.body).param, 'perMinute');
        const past = await create({ expiresAt: '2001-01-01T00:00:00Z' });
        assert.equal(past.status, 400);
        assert.equal(json(past.body).code, 'invalid_body');
        const unknown = await create({ plan: 'business' });
        assert.equal(unknown.status, 400);
      },
    );

    it('GET …/keys pages with a cursor: hasMore and next until the last page', { skip }, async () => {
      for (let i = 0; i < 4; i++) await create({ label: `page ${i}` });
      const seen: string[] = [];
      let url: string | undefined = '/manage/v1/projects/acme/keys?limit=2';
      while (url) {
        const response = await app.request({ url, key: owner.token });
        assert.equal(response.status, 200);
        const page = json(response.body);
        seen.push(...(page.data as Json[]).map((key) => key.id as string));
        assert.equal(page.hasMore, page.next !== null);
        url = page.next ? `/manage/v1/projects/acme/keys?limit=2&cursor=${page.next as string}` : undefined;
      }
      assert.equal(new Set(seen).size, seen.length);
      assert.ok(seen.length >= 5);
      const bad = await app.request({ url: '/manage/v1/projects/acme/keys?cursor=abc', key: owner.token });
      assert.equal(bad.status, 400);
      assert.equal(json(bad.body).code, 'invalid_cursor');
    });

    it('DELETE …/keys/{id} → 200 revoked; the key stops at once; again → 404', { skip }, async () => {
      const { key, secret } = json((await create({ label: 'gone' })).body) as { key: Json; secret: string };
      const url = `/manage/v1/projects/acme/keys/${key.id as string}`;
      const revoked = await app.request({ method: 'DELETE', url, key: owner.token });
      assert.equal(revoked.status, 200);
      assert.equal(json(revoked.body).state, 'revoked');
      assert.equal((await app.request({ url: '/v1/pets', key: secret })).status, 401);
      assert.equal((await app.request({ method: 'DELETE', url, key: owner.token })).status, 404);
    });

    it(
      'POST …/keys/{id}/roll → 201: both keys work until the overlap ends, then only the new one',
      { skip },
      async () => {
        const { key, secret } = json((await create({ label: 'rolled' })).body) as {
          key: Json;
          secret: string;
        };
        const url = `/manage/v1/projects/acme/keys/${key.id as string}/roll`;
        const rolled = await app.request({
          method: 'POST',
          url,
          key: owner.token,
          body: { overlapSeconds: 60 },
        });
        assert.equal(rolled.status, 201);
        const body = json(rolled.body) as { key: Json; secret: string; previous: Json };
        assert.equal(body.previous.state, 'rolling');
        assert.equal(body.previous.rolledTo, body.key.id);
        assert.equal(body.key.label, 'rolled');
        assert.equal((await app.request({ url: '/v1/pets', key: secret })).status, 200);
        assert.equal((await app.request({ url: '/v1/pets', key: body.secret })).status, 200);
        app.clock.advance(61_000);
        assert.equal((await app.request({ url: '/v1/pets', key: secret })).status, 401);
        assert.equal((await app.request({ url: '/v1/pets', key: body.secret })).status, 200);
        const again = await app.request({ method: 'POST', url, key: owner.token });
        assert.equal(again.status, 409);
        assert.equal(json(again.body).code, 'conflict');
      },
    );

    it('two clients rolling one key at once → one 201, one 409 conflict, one new key', { skip }, async () => {
      const { key } = json((await create({ label: 'race' })).body) as { key: Json };
      const url = `/manage/v1/projects/acme/keys/${key.id as string}/roll`;
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => app.request({ method: 'POST', url, key: owner.token })),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409, 409, 409]);
      const keys = await app.storage.keys.list('prj_acme');
      assert.equal(keys.filter((candidate) => candidate.label === 'race').length, 2);
    });

    it(
      'every change is in the audit trail with the token that made it, in the same transaction',
      { skip },
      async () => {
        const response = await app.request({
          url: '/manage/v1/projects/acme/audit?limit=200',
          key: owner.token,
        });
        assert.equal(response.status, 200);
        const events = json(response.body).data as Json[];
        const actions = new Set(events.map((event) => event.action));
        for (const action of ['key_created', 'key_revoked', 'key_rolled'])
          assert.ok(actions.has(action), action);
        for (const event of events.filter((candidate) => String(candidate.action).startsWith('key_'))) {
          assert.equal(event.via, `token:${owner.tokenId}`);
          assert.equal(event.actor, owner.email);
        }
      },
    );
  });
}
