import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { maintenanceJobs } from '../src/maintenance/jobs.ts';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage, type SharedStorage } from './shared-storage.ts';

type Json = Record<string, unknown>;
const DAY = 86_400_000;

/**
 * Idempotency-Key on the management API's creates that answer a secret (docs/management-api.md):
 * replayed whole, secret and all, to the token that sent it and to no other; kept sealed.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: Idempotency-Key (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let shared: SharedStorage;
    let app: TestApp;
    let owner: TokenHolder;
    let manager: string;

    before(async () => {
      if (skip) return;
      shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-idem-',
      );
      app = await makeTestApp({ storage: await shared.open() });
      owner = await tokenHolder(app, ['acme', 'beta'], { managesTokens: true });
      const made = await app.app.accessTokens.create(
        { kind: 'account', accountId: owner.accountId, email: owner.email, address: null },
        { name: 'ops', scope: 'write', projects: ['acme'], expiresInDays: 30, managesTokens: true },
      );
      assert.ok(made.ok);
      manager = made.value.secret;
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await shared.cleanup();
    });

    const post = (
      target: TestApp,
      url: string,
      key: string | undefined,
      body: unknown,
      token = owner.token,
    ) =>
      target.request({
        method: 'POST',
        url,
        key: token,
        body,
        headers: key === undefined ? undefined : { 'idempotency-key': key },
      });
    const keysOf = async (slug: string) =>
      (
        await app.request({
          method: 'GET',
          url: `/manage/v1/projects/${slug}/keys?limit=100`,
          key: owner.token,
        })
      ).json() as {
        data: Json[];
      };
    const secretOf = (response: TestResponse) => (JSON.parse(response.body) as { secret: string }).secret;
    const assertFirst = (response: TestResponse) => {
      assert.equal(response.status, 201, response.body);
      assert.equal(response.headers['idempotent-replayed'], undefined);
      assert.match(secretOf(response), /^ps_/);
    };
    const assertReplayOf = (response: TestResponse, first: TestResponse) => {
      assert.equal(response.status, 201, response.body);
      assert.equal(response.headers['idempotent-replayed'], 'true');
      assert.equal(response.body, first.body);
    };
    const assertRefused = (response: TestResponse, status: number, code: string) => {
      assert.equal(response.status, status, response.body);
      const error = JSON.parse(response.body) as Json;
      assert.deepEqual([error.code, error.param], [code, 'Idempotency-Key']);
    };

    it(
      'POST …/keys → the first 201 again, secret and all, for the same key and body; 422 for another body',
      { skip },
      async () => {
        const url = '/manage/v1/projects/acme/keys';
        const before = (await keysOf('acme')).data.length;
        const first = await post(app, url, 'create-1', { label: 'ci', perMinute: 10 });
        assertFirst(first);
        assertReplayOf(await post(app, url, 'create-1', { label: 'ci', perMinute: 10 }), first);
        assertReplayOf(await post(app, url, 'create-1', ' {"perMinute":10 , "label":"ci"}\n'), first);
        assertRefused(
          await post(app, url, 'create-1', { label: 'cd', perMinute: 10 }),
          422,
          'idempotency_key_reused',
        );
        assertRefused(
          await post(app, '/manage/v1/projects/beta/keys', 'create-1', { label: 'ci', perMinute: 10 }),
          422,
          'idempotency_key_reused',
        );
        assert.equal((await keysOf('acme')).data.length, before + 1);
        assert.equal((await keysOf('beta')).data.length, 0);
      },
    );

    it(
      'POST …/keys → another token, of another account or the same one, with the key creates anew and never gets the secret',
      { skip },
      async () => {
        const url = '/manage/v1/projects/acme/keys';
        const other = await tokenHolder(app, ['acme'], { role: 'developer' });
        const first = await post(app, url, 'shared-key', {});
        for (const token of [other.token, manager]) {
          const second = await post(app, url, 'shared-key', {}, token);
          assertFirst(second);
          assert.notEqual(secretOf(second), secretOf(first));
          assert.ok(!second.body.includes(secretOf(first)));
          assertReplayOf(await post(app, url, 'shared-key', {}, token), second);
        }
      },
    );

    it(
      'the kept answer is sealed: the row holds no secret, and copied onto another token it does not open',
      { skip },
      async () => {
        const body = { label: 'kept-label' };
        const first = await post(app, '/manage/v1/projects/acme/keys', 'sealed', body);
        assertFirst(first);
        const rows = await app.storage.sql.all('SELECT * FROM idempotent_responses WHERE key = $1', [
          'sealed',
        ]);
        assert.equal(rows.length, 1);
        const stored = Object.values(rows[0]!).map(String).join(' ');
        const secret = secretOf(first);
        const keyId = String((JSON.parse(first.body) as { key: Json }).key.id);
        for (const clear of [secret, secret.slice(-16), keyId, 'kept-label'])
          assert.ok(!stored.includes(clear), clear);
        assert.match(String(rows[0]!.sealed_body), /^v1\.[A-Za-z0-9_-]+$/);

        const other = await tokenHolder(app, ['acme']);
        await app.storage.sql.run(
          `INSERT INTO idempotent_responses (token_id, key, request_hash, sealed_body, created_at, expires_at)
         SELECT $1, key, request_hash, sealed_body, created_at, expires_at FROM idempotent_responses WHERE key = $2`,
          [other.tokenId, 'sealed'],
        );
        const stolen = await post(app, '/manage/v1/projects/acme/keys', 'sealed', body, other.token);
        assert.equal(stolen.status, 500);
        assert.ok(!stolen.body.includes(secret));
      },
    );

    it(
      'POST …/roll → the first roll replayed instead of 409 conflict; another overlap or key → 422',
      { skip },
      async () => {
        const made = await post(app, '/manage/v1/projects/acme/keys', undefined, {});
        const keyId = String((JSON.parse(made.body) as { key: Json }).key.id);
        const roll = (key: string, id: string, overlapSeconds: number) =>
          post(app, `/manage/v1/projects/acme/keys/${id}/roll`, key, { overlapSeconds });
        const first = await roll('roll-1', keyId, 60);
        assertFirst(first);
        assertReplayOf(await roll('roll-1', keyId, 60), first);
        assertRefused(await roll('roll-1', keyId, 120), 422, 'idempotency_key_reused');
        assert.equal(
          (await roll('roll-2', keyId, 60)).status,
          409,
          'a second roll without the key still conflicts',
        );
        const newKeyId = String((JSON.parse(first.body) as { key: Json }).key.id);
        assertRefused(await roll('roll-1', newKeyId, 60), 422, 'idempotency_key_reused');
      },
    );

    it(
      'POST /manage/v1/tokens → one token for repeated requests, the same secret each time; 422 for another body',
      { skip },
      async () => {
        const body = { name: 'deploy', scope: 'read', projects: ['acme'], expiresInDays: 7 };
        const count = async () => (await app.app.accessTokens.list(owner.accountId)).length;
        const before = await count();
        const first = await post(app, '/manage/v1/tokens', 'token-1', body, manager);
        assertFirst(first);
        assertReplayOf(await post(app, '/manage/v1/tokens', 'token-1', body, manager), first);
        assertRefused(
          await post(app, '/manage/v1/tokens', 'token-1', { ...body, name: 'other' }, manager),
          422,
          'idempotency_key_reused',
        );
        assert.equal(await count(), before + 1);
        assert.equal(
          (await app.request({ method: 'GET', url: '/manage/v1/projects/acme', key: secretOf(first) }))
            .status,
          200,
        );
      },
    );

    it(
      'a refused create is not remembered: the same key then creates; a malformed key → 400',
      { skip },
      async () => {
        const url = '/manage/v1/projects/acme/keys';
        const refused = await post(app, url, 'after-400', { perMinute: 0 });
        assert.equal(refused.status, 400, refused.body);
        assertFirst(await post(app, url, 'after-400', { label: 'fixed' }));
        for (const key of ['', 'k'.repeat(256), 'clé', 'a b']) {
          const response = await post(app, url, key, {});
          assert.equal(response.status, 400, key);
          assert.equal((JSON.parse(response.body) as Json).param, 'Idempotency-Key');
        }
      },
    );

    it(
      'concurrent requests with one key, on two instances sharing the database → one key; the rest replay or 409',
      { skip },
      async () => {
        const twin = await makeTestApp({ storage: await shared.open(), clock: app.clock });
        try {
          const url = '/manage/v1/projects/beta/keys';
          const responses = await Promise.all(
            Array.from({ length: 12 }, (_, i) => post(i % 2 ? twin : app, url, 'burst', { label: 'burst' })),
          );
          const created = responses.filter(
            (r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined,
          );
          assert.equal(created.length, 1);
          for (const response of responses) {
            if (response === created[0]) continue;
            if (response.status === 409) assertRefused(response, 409, 'idempotency_in_progress');
            else assertReplayOf(response, created[0]!);
          }
          assert.equal((await keysOf('beta')).data.length, 1);
        } finally {
          await twin.close();
        }
      },
    );

    it(
      'after 24 hours the key creates anew; the maintenance purges the expired answers',
      { skip },
      async () => {
        const url = '/manage/v1/projects/acme/keys';
        const first = await post(app, url, 'daily', {});
        app.clock.advance(DAY - 1);
        assertReplayOf(await post(app, url, 'daily', {}), first);
        app.clock.advance(1);
        const again = await post(app, url, 'daily', {});
        assertFirst(again);
        assert.notEqual(secretOf(again), secretOf(first));
        app.clock.advance(DAY);
        const purge = maintenanceJobs(app.storage, undefined).find((job) =>
          job.what.includes('management answers'),
        )!;
        assert.ok((await purge.run(app.clock.now(), async () => true)) >= 1);
        const [left] = await app.storage.sql.all(
          'SELECT COUNT(*) AS n FROM idempotent_responses WHERE expires_at <= $1',
          [app.clock.now()],
        );
        assert.equal(Number(left!.n), 0);
      },
    );
  });
}
