import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_ACTIVE_TOKENS } from '../src/features/access-tokens/repository.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const TOKEN_LIMITS = { perMinute: 5, perDay: 1_000 };
const ACCOUNT_LIMITS = { perMinute: 8, perDay: 1_000 };

/**
 * The management API's caps: an account holds at most MAX_ACTIVE_TOKENS tokens that work (the next one
 * is refused with the reason, also when several are asked for at once), and all of an account's
 * tokens together get its ceiling, beside each token's own limits. On both databases.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: tokens per account and the account's ceiling (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-manage-caps-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({
        storage: await shared.open(),
        manageTokenLimits: TOKEN_LIMITS,
        manageAccountLimits: ACCOUNT_LIMITS,
      });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    it(
      `an account's token past ${MAX_ACTIVE_TOKENS} working ones → refused naming the cap, also when asked for at once; a revoked one frees a place`,
      { skip },
      async () => {
        const holder = await tokenHolder(app, ['capped']);
        const actor = {
          kind: 'account' as const,
          accountId: holder.accountId,
          email: holder.email,
          address: null,
        };
        const create = (name: string) =>
          app.app.accessTokens.create(actor, { name, scope: 'read', projects: ['capped'], expiresInDays: 7 });
        for (let n = 1; n < MAX_ACTIVE_TOKENS - 3; n++) assert.ok((await create(`t${n}`)).ok, `token ${n}`);
        const raced = await Promise.all(Array.from({ length: 6 }, (_, n) => create(`raced ${n}`)));
        assert.equal(raced.filter((outcome) => outcome.ok).length, 3, 'three places left: three made');
        const refused = raced.find((outcome) => !outcome.ok);
        assert.equal(refused?.ok, false);
        assert.equal(refused.problem.code, 'conflict');
        assert.match(refused.problem.message, new RegExp(`${MAX_ACTIVE_TOKENS} active access tokens`));
        const [active] = await app.storage.sql.all(
          'SELECT count(*) AS n FROM access_tokens WHERE account_id = $1 AND revoked_at IS NULL',
          [holder.accountId],
        );
        assert.equal(Number(active!.n), MAX_ACTIVE_TOKENS);
        assert.ok((await app.app.accessTokens.revoke(actor, holder.tokenId)).ok);
        assert.ok((await create('after a revocation')).ok);
        assert.equal((await create('one too many')).ok, false);
      },
    );

    it(
      `an account's tokens together → at most its ceiling (${ACCOUNT_LIMITS.perMinute} a minute), each at most its own (${TOKEN_LIMITS.perMinute}); another account is not counted`,
      { skip },
      async () => {
        app.clock.advance(60_000);
        const first = await tokenHolder(app, ['ceiling']);
        const actor = {
          kind: 'account' as const,
          accountId: first.accountId,
          email: first.email,
          address: null,
        };
        const secrets = [first.token];
        for (const name of ['second', 'third']) {
          const made = await app.app.accessTokens.create(actor, {
            name,
            scope: 'read',
            projects: ['ceiling'],
            expiresInDays: 7,
          });
          assert.ok(made.ok);
          secrets.push(made.value.secret);
        }
        const other = await tokenHolder(app, ['ceiling']);
        const statuses: number[] = [];
        for (let n = 0; n < 12; n++) {
          const response = await app.request({ url: '/manage/v1/projects', key: secrets[n % 3]! });
          statuses.push(response.status);
          if (response.status === 200) {
            assert.match(
              response.headers['ratelimit-policy']!,
              /"minute";q=8;w=60, "day";q=1000;w=86400, "token-minute";q=5;w=60/,
            );
          } else {
            assert.equal((JSON.parse(response.body) as { code: string }).code, 'rate_limited');
            assert.ok(Number(response.headers['retry-after']) > 0);
          }
        }
        assert.deepEqual(statuses, [...Array(8).fill(200), ...Array(4).fill(429)]);
        assert.equal((await app.request({ url: '/manage/v1/projects', key: other.token })).status, 200);
        const alone = [];
        for (let n = 0; n < 6; n++)
          alone.push((await app.request({ url: '/manage/v1/projects', key: other.token })).status);
        assert.deepEqual(alone, [200, 200, 200, 200, 429, 429], 'each token keeps its own limit');
      },
    );
  });
}
