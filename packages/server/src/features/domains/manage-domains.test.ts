import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHECK_INTERVAL_MS } from './rules.ts';
import { startZoneServer, type ZoneServer } from '../../../test/dns-zone-server.ts';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../../test/manage-support.ts';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';
import { zoneResolver } from '../../../test/zone-resolver.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;
const TARGET = 'acme.sites.localhost';
const BASE = '/manage/v1/projects/acme/domains';

/** The custom domains of the management API on SQLite and PostgreSQL: the dashboard's service, by token. */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: custom domains (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let zone: ZoneServer;
    let owner: TokenHolder;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      zone = await startZoneServer();
      zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-manage-domains-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({
        storage: await shared.open(),
        dns: zoneResolver(zone),
        hosts: { siteDomain: 'sites.localhost', apiHost: 'api.localhost' },
      });
      owner = await tokenHolder(app, ['acme']);
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await zone.close();
      await cleanup();
    });

    const add = (hostname: unknown, token = owner.token) =>
      app.request({ method: 'POST', url: BASE, key: token, body: { hostname } });
    const post = (path: string, token = owner.token) =>
      app.request({ method: 'POST', url: `${BASE}/${path}`, key: token });
    const trail = async () => {
      const response = await app.request({ url: '/manage/v1/projects/acme/audit', key: owner.token });
      return (json(response.body).data as Json[]).map((event) => `${event.action} ${event.target}`);
    };

    it('POST …/domains below Pro → 403 plan_required; nothing is added', { skip }, async () => {
      const refused = await add('docs.example.test');
      assert.equal(refused.status, 403);
      assert.equal(json(refused.body).code, 'plan_required');
      await app.storage.projects.setPlan('acme', 'pro', null, null);
      const listed = await app.request({ url: BASE, key: owner.token });
      assert.deepEqual(json(listed.body), { data: [], hasMore: false, next: null });
    });

    it(
      'POST …/domains → 201 checked at once: verified when the CNAME is there, with its records; the host is served',
      { skip },
      async () => {
        zone.set('docs.example.test', [{ type: 'CNAME', value: TARGET }]);
        const response = await add('Docs.Example.TEST.');
        assert.equal(response.status, 201, response.body);
        const domain = json(response.body);
        assert.equal(domain.hostname, 'docs.example.test');
        assert.equal(domain.state, 'verified');
        assert.equal(domain.primary, true);
        assert.deepEqual(domain.records, [
          { type: 'CNAME', name: 'docs.example.test', value: TARGET, ok: true, seen: [TARGET] },
        ]);
        const page = await app.request({
          url: '/',
          key: null,
          unchecked: true,
          headers: { host: 'docs.example.test' },
        });
        assert.equal(page.status, 200);
        assert.equal((await trail())[0], 'domain_added docs.example.test');
      },
    );

    it(
      'POST …/domains with a bad name or body → 400 invalid_body; a name it has → 409 domain_exists',
      { skip },
      async () => {
        for (const body of ['203.0.113.9', 'localhost', '']) {
          const response = await add(body);
          assert.equal(response.status, 400, String(body));
          assert.equal(json(response.body).code, 'invalid_body');
        }
        const untyped = await app.request({
          method: 'POST',
          url: BASE,
          key: owner.token,
          body: { hostname: 7 },
        });
        assert.equal(untyped.status, 400);
        const again = await add('docs.example.test');
        assert.equal(again.status, 409);
        assert.equal(json(again.body).code, 'domain_exists');
      },
    );

    it('two clients adding the same domain at once → one 201, one 409 domain_exists', { skip }, async () => {
      const other = await tokenHolder(app, ['acme']);
      // DNS that answers late holds both adds past the early look for the name, so both reach the
      // insert: the database decides, whatever the timing.
      zone.behave({ delayMs: 2_000 });
      const answers = await Promise.all([
        add('race.example.test'),
        add('race.example.test', other.token),
      ]).finally(() => zone.behave('answer'));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
      assert.equal(json(answers.find((a) => a.status === 409)!.body).code, 'domain_exists');
      const added = (await trail()).filter((line) => line === 'domain_added race.example.test');
      assert.equal(added.length, 1, 'one audit record, of the one add');
    });

    it('GET …/domains pages in the order added: hasMore and next until the last page', { skip }, async () => {
      await add('www.example.test');
      const seen: string[] = [];
      let url: string | undefined = `${BASE}?limit=2`;
      while (url) {
        const response = await app.request({ url, key: owner.token });
        assert.equal(response.status, 200);
        const page = json(response.body);
        seen.push(...(page.data as Json[]).map((d) => d.hostname as string));
        url = page.hasMore ? `${BASE}?limit=2&cursor=${page.next as string}` : undefined;
      }
      assert.deepEqual(seen, ['docs.example.test', 'race.example.test', 'www.example.test']);
      const altered = await app.request({ url: `${BASE}?cursor=abc`, key: owner.token });
      assert.equal(altered.status, 400);
      assert.equal(json(altered.body).code, 'invalid_cursor');
      const large = await app.request({ url: `${BASE}?limit=101`, key: owner.token });
      assert.equal(large.status, 400);
    });

    it(
      'POST …/check when DNS gives no answer → 200, still verified with checkError; the trail says it could not check',
      { skip },
      async () => {
        app.clock.advance(CHECK_INTERVAL_MS);
        zone.behave('refuse');
        try {
          const response = await post('docs.example.test/check');
          assert.equal(response.status, 200);
          const domain = json(response.body);
          assert.equal(domain.state, 'verified');
          assert.match(domain.checkError as string, /^Could not check: .*, will retry$/);
        } finally {
          zone.behave('answer');
        }
        const [last] = await trail();
        assert.match(last!, /^domain_checked docs\.example\.test: could not check \(.+\), still verified$/);
        const again = await post('docs.example.test/check');
        assert.equal(again.status, 429);
        assert.equal(json(again.body).code, 'rate_limited');
        assert.equal(again.headers['retry-after'], String(CHECK_INTERVAL_MS / 1000));
        app.clock.advance(CHECK_INTERVAL_MS);
        const answered = await post('docs.example.test/check');
        assert.equal(answered.status, 200);
        assert.equal(json(answered.body).checkError, null);
        assert.equal((await trail())[0], 'domain_verified docs.example.test: verified');
      },
    );

    it(
      'POST …/primary → 200 on a verified domain; 409 conflict on one not verified; 404 on another name',
      { skip },
      async () => {
        zone.set('www.example.test', [{ type: 'CNAME', value: TARGET }]);
        app.clock.advance(CHECK_INTERVAL_MS);
        assert.equal(json((await post('www.example.test/check')).body).state, 'verified');
        const made = await post('www.example.test/primary');
        assert.equal(made.status, 200);
        assert.equal(json(made.body).primary, true);
        const pending = await post('race.example.test/primary');
        assert.equal(pending.status, 409);
        assert.equal(json(pending.body).code, 'conflict');
        const unknown = await post('nope.example.test/primary');
        assert.equal(unknown.status, 404);
        assert.equal(json(unknown.body).code, 'not_found');
      },
    );

    it(
      'DELETE …/domains/{hostname} → 200 and the host is not served on the next request; again → 404',
      { skip },
      async () => {
        const removed = await app.request({
          method: 'DELETE',
          url: `${BASE}/www.example.test`,
          key: owner.token,
        });
        assert.equal(removed.status, 200);
        assert.equal(json(removed.body).hostname, 'www.example.test');
        const page = await app.request({
          url: '/',
          key: null,
          unchecked: true,
          headers: { host: 'www.example.test' },
        });
        assert.equal(page.status, 404);
        const again = await app.request({
          method: 'DELETE',
          url: `${BASE}/www.example.test`,
          key: owner.token,
        });
        assert.equal(again.status, 404);
        assert.equal((await trail())[0], 'domain_removed www.example.test');
      },
    );

    it(
      'a viewer reads but changes nothing; a developer → 403 forbidden; a read token → 403 insufficient_scope',
      { skip },
      async () => {
        const writes = [
          () => ({ method: 'POST' as const, url: BASE, body: { hostname: 'new.example.test' } }),
          () => ({ method: 'POST' as const, url: `${BASE}/docs.example.test/check` }),
          () => ({ method: 'POST' as const, url: `${BASE}/docs.example.test/primary` }),
          () => ({ method: 'DELETE' as const, url: `${BASE}/docs.example.test` }),
        ];
        for (const [role, scope, code] of [
          ['viewer', 'write', 'forbidden'],
          ['developer', 'write', 'forbidden'],
          ['owner', 'read', 'insufficient_scope'],
        ] as const) {
          const holder = await tokenHolder(app, ['acme'], { role, scope });
          const listed = await app.request({ url: BASE, key: holder.token });
          assert.equal(listed.status, 200, `${role} ${scope} reads`);
          for (const write of writes) {
            const response = await app.request({ ...write(), key: holder.token });
            assert.equal(response.status, 403, `${role} ${scope} ${write().method} ${write().url}`);
            assert.equal(json(response.body).code, code);
          }
        }
        const stranger = await tokenHolder(app, ['zoo']);
        const hidden = await app.request({ url: BASE, key: stranger.token });
        assert.equal(hidden.status, 404);
        assert.ok(await app.storage.domains.get('docs.example.test'), 'nothing was removed');
      },
    );

    it(
      'POST …/domains beyond the plan → 403 domain_limit_reached; beyond 30 adds an hour → 429 rate_limited with Retry-After',
      { skip },
      async () => {
        const listed = json((await app.request({ url: `${BASE}?limit=100`, key: owner.token })).body);
        const have = (listed.data as Json[]).length;
        for (let i = have; i < 10; i++) assert.equal((await add(`cap${i}.example.test`)).status, 201);
        const capped = await add('cap10.example.test');
        assert.equal(capped.status, 403, capped.body);
        assert.equal(json(capped.body).code, 'domain_limit_reached');
        await app.storage.projects.setPlan('acme', 'business', null, null);
        let answer = await add('more0.example.test');
        for (let i = 1; answer.status === 201 && i < 40; i++) answer = await add(`more${i}.example.test`);
        assert.equal(answer.status, 429);
        assert.equal(json(answer.body).code, 'rate_limited');
        assert.match(answer.headers['retry-after'] as string, /^[1-9]\d*$/);
      },
    );

    it('an expired token → 401 unauthorized', { skip }, async () => {
      const expiring = await tokenHolder(app, ['acme'], { expiresInDays: 7 });
      assert.equal((await app.request({ url: BASE, key: expiring.token })).status, 200);
      app.clock.advance(7 * 86_400_000);
      const response = await app.request({ url: BASE, key: expiring.token });
      assert.equal(response.status, 401);
      assert.equal(json(response.body).code, 'unauthorized');
    });
  });
}
