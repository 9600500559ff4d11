import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serviceSettings } from '../../server/src/features/domains/settings.ts';
import { startZoneServer, type ZoneServer } from '../../server/test/dns-zone-server.ts';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../server/test/manage-support.ts';
import { zoneResolver } from '../../server/test/zone-resolver.ts';
import { cli } from './run-cli.ts';
import { openStoreAt } from '../../server/src/features/store.ts';

type Json = Record<string, unknown>;
const TARGET = 'acme.sites.localhost';

/**
 * `petstore domains` with an access token, from a directory with no database and none of the service's
 * settings, against a server whose DNS is a zone on loopback; and the same commands on that server's
 * database, which must print the same.
 */
describe(
  'petstore domains with an access token, and the same output on the database',
  { concurrency: 1 },
  () => {
    let app: TestApp;
    let zone: ZoneServer;
    let dir: string;
    let database: string;
    let origin: string;
    let owner: TokenHolder;
    let viewer: TokenHolder;
    const api = (args: string[], token = owner.token) =>
      cli(args, {
        cwd: join(dir, 'empty'),
        env: {
          PETSTORE_BASE_URL: origin,
          PETSTORE_ACCESS_TOKEN: token,
          XDG_CONFIG_HOME: join(dir, 'config'),
        },
      });
    const onDatabase = (args: string[]) => cli(args, { cwd: dir, env: { DATABASE_URL: database } });

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'petstore-cli-domains-'));
      await mkdir(join(dir, 'empty'));
      database = join(dir, 'petstore.db');
      zone = await startZoneServer();
      zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
      app = await makeTestApp({
        storage: await openStoreAt(database),
        dns: zoneResolver(zone),
        hosts: { siteDomain: 'sites.localhost', apiHost: 'api.localhost' },
      });
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
      owner = await tokenHolder(app, ['acme']);
      viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
      // What a running service records at start-up, which the database mode judges domains by.
      await serviceSettings(app.storage.sql).record(
        {
          servers: [zone.address],
          siteDomain: 'sites.localhost',
          apiHost: 'api.localhost',
          caIdentity: 'letsencrypt.org',
          enterpriseDomains: null,
        },
        app.clock.now(),
      );
    });
    after(async () => {
      await app?.close();
      await zone?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('domains list, add below Pro, add, verify: the words of the database mode, the mode line on stderr', async () => {
      const empty = await api(['domains', 'list', '--project', 'acme']);
      assert.equal(empty.code, 0, empty.stderr);
      assert.match(empty.stderr, /^petstore: management API at .* \(PETSTORE_ACCESS_TOKEN\)$/m);
      assert.match(empty.stdout, /^acme has no custom domain; add one with: petstore domains add/);

      const belowPro = await api(['domains', 'add', 'docs.example.test', '--project', 'acme']);
      assert.equal(belowPro.code, 5, 'plan_required: not allowed (5), as on the database');
      assert.match(belowPro.stderr, /^petstore: custom domains need the Pro plan or above/m);
      await app.storage.projects.setPlan('acme', 'pro', null, null);

      zone.set('docs.example.test', [{ type: 'CNAME', value: TARGET }]);
      const added = await api(['domains', 'add', 'Docs.Example.TEST.', '--project', 'acme']);
      assert.equal(added.code, 0, added.stderr);
      assert.match(added.stdout, /^docs\.example\.test: verified \(primary\)$/m);
      assert.match(added.stdout, /CNAME\s+docs\.example\.test\s+acme\.sites\.localhost\s+ok/);

      const apex = await api(['domains', 'add', 'example.test', '--project', 'acme', '--json']);
      assert.equal(apex.code, 0, apex.stderr);
      const domain = JSON.parse(apex.stdout) as { records: { type: string }[]; state: string };
      assert.deepEqual(
        domain.records.map((record) => record.type),
        ['ALIAS', 'TXT'],
      );
      const verified = await api(['domains', 'verify', 'example.test', '--project', 'acme', '--json']);
      assert.equal(verified.code, 1, 'not verified by this check: exit 1');
      assert.equal((JSON.parse(verified.stdout) as Json).state, 'pending');
    });

    it('domains list --limit/--cursor/--all through the API: one page, the next cursor on stderr, every page', async () => {
      const first = await api(['domains', 'list', '--project', 'acme', '--limit', '1', '--json']);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(
        (JSON.parse(first.stdout) as Json[]).map((d) => d.hostname),
        ['docs.example.test'],
      );
      const cursor = /more: petstore domains list --project acme --cursor (\S+) \(or --all\)/.exec(
        first.stderr,
      )![1]!;
      const rest = await api(['domains', 'list', '--project', 'acme', '--cursor', cursor]);
      assert.match(rest.stdout, /^HOSTNAME +STATE +PRIMARY +CHECKED +REASON\nexample\.test +pending /);
      const all = await api(['domains', 'list', '--project', 'acme', '--limit', '1', '--all', '--json']);
      assert.equal((JSON.parse(all.stdout) as Json[]).length, 2);
    });

    it('the same domains --json on the database and through the API, and the same table', async () => {
      for (const args of [
        ['domains', 'list', '--project', 'acme', '--json'],
        ['domains', 'list', '--project', 'acme', '--limit', '1', '--json'],
        ['domains', 'list', '--project', 'acme'],
      ]) {
        const [throughApi, local] = [await api(args), await onDatabase(args)];
        assert.equal(local.code, 0, local.stderr);
        assert.match(local.stderr, /operator mode on the database/);
        assert.equal(throughApi.stdout, local.stdout, args.join(' '));
      }
      const [apiVerify, localVerify] = [
        await api(['domains', 'verify', 'docs.example.test', '--project', 'acme', '--json']),
        await onDatabase(['domains', 'verify', 'docs.example.test', '--project', 'acme', '--json']),
      ];
      assert.equal(apiVerify.code, 0, apiVerify.stderr);
      assert.equal(localVerify.code, 0, localVerify.stderr);
      const withoutCheck = (text: string) => ({ ...(JSON.parse(text) as Json), checkedAt: null });
      assert.deepEqual(withoutCheck(apiVerify.stdout), withoutCheck(localVerify.stdout));
    });

    it('domains primary and remove through the API: the database mode’s lines; a refusal is its Error', async () => {
      const notVerified = await api(['domains', 'primary', 'example.test', '--project', 'acme']);
      assert.equal(notVerified.code, 6, 'a conflict: not verified yet');
      assert.match(notVerified.stderr, /^petstore: .*example\.test.*$/m);
      const asJson = await api(['domains', 'primary', 'example.test', '--project', 'acme', '--json']);
      assert.equal(asJson.code, 6);
      assert.deepEqual(Object.keys(JSON.parse(asJson.stdout) as Json), ['code', 'message', 'status']);
      assert.equal((JSON.parse(asJson.stdout) as Json).status, 409);

      const primary = await api(['domains', 'primary', 'docs.example.test', '--project', 'acme']);
      assert.equal(primary.code, 0, primary.stderr);
      assert.equal(
        primary.stdout,
        'docs.example.test is the primary domain of acme: every other address redirects to it\n',
      );
      const removed = await api(['domains', 'remove', 'example.test', '--project', 'acme']);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(removed.stdout, 'example.test was removed from acme: it is no longer served\n');
      const unknown = await api(['domains', 'remove', 'example.test', '--project', 'acme']);
      assert.equal(unknown.code, 3, 'a domain that does not exist: exit 3');
    });

    it('a viewer token → the Error message of the API and exit 5; without --project → exit 2 before any request', async () => {
      const answer = await app.request({
        method: 'POST',
        url: '/manage/v1/projects/acme/domains/docs.example.test/check',
        key: viewer.token,
      });
      assert.equal(answer.status, 403);
      const { message } = JSON.parse(answer.body) as { message: string };
      const refused = await api(
        ['domains', 'verify', 'docs.example.test', '--project', 'acme'],
        viewer.token,
      );
      assert.equal(refused.code, 5, 'not allowed');
      assert.ok(refused.stderr.includes(`petstore: ${message}\n`), refused.stderr);
      const listed = await api(['domains', 'list', '--project', 'acme'], viewer.token);
      assert.equal(listed.code, 0, 'a viewer reads');

      const noProject = await api(['domains', 'verify', 'docs.example.test']);
      assert.equal(noProject.code, 2);
      assert.match(noProject.stderr, /domains verify through the management API needs --project <slug>/);
    });
  },
);
