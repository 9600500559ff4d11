import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDnsResolver } from '../src/features/domains/dns.ts';
import { deferredDomains } from '../src/features/domains/deferred.ts';
import { systemClock } from '../src/time/clock.ts';
import { cleanEnv, runCli } from './blackbox-process.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { openStoreAt } from '../src/features/store.ts';

const SITE = 'sites.service.test';

// `petstore domains` in database mode, run in this process: it judges domains by what the running
// service recorded in the database (its site domain, API host, DNS servers), never by its own shell.
describe("petstore domains: the service's settings from the database, never the shell's", () => {
  let dir: string;
  let zone: ZoneServer;
  let file: string;
  /** A second terminal: configured otherwise than the service (another site domain, no DNS servers). */
  let shell: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCli(args, shell);

  /** What a service started on the database records (server.ts, as it starts: deferredDomains.recordSettings). */
  const serviceStarts = async () => {
    const storage = await openStoreAt(file);
    try {
      await deferredDomains({
        storage,
        clock: systemClock,
        resolver: createDnsResolver([zone.address]),
        siteDomain: SITE,
        apiHost: 'api.service.test',
        caIdentity: 'letsencrypt.org',
      }).recordSettings();
    } finally {
      await storage.close();
    }
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-domains-settings-'));
    file = join(dir, 'petstore.db');
    zone = await startZoneServer();
    zone.set(`acme.${SITE}`, [{ type: 'A', value: '198.51.100.7' }]);
    zone.set(`zoo.${SITE}`, [{ type: 'A', value: '198.51.100.7' }]);
    shell = cleanEnv({ DATABASE_URL: file, PETSTORE_SITE_DOMAIN: 'sites.shell.test' });
    assert.equal((await cli('migrate')).code, 0);
    for (const slug of ['acme', 'zoo']) {
      const created = await cli('projects', 'create', '--name', slug, '--slug', slug, '--plan', 'pro');
      assert.equal(created.code, 0, created.stderr);
    }
  });
  after(async () => {
    await zone.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('before any service recorded its settings → add exits 1 saying to start it; an empty list is still listed', async () => {
    const refused = await cli('domains', 'add', 'docs.example.test', '--project', 'acme');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /the service has not recorded its settings .* start it once/);
    const listed = await cli('domains', 'list', '--project', 'acme');
    assert.equal(listed.code, 0, 'an empty list needs none of the settings');
    assert.match(listed.stdout, /acme has no custom domain/);
  });

  it("domains add with another PETSTORE_SITE_DOMAIN in the shell → judged by the service's: verified, its CNAME named", async () => {
    await serviceStarts();
    zone.set('docs.example.test', [{ type: 'CNAME', value: `acme.${SITE}` }]);
    const added = await cli('domains', 'add', 'docs.example.test', '--project', 'acme', '--json');
    assert.equal(added.code, 0, added.stderr);
    const domain = JSON.parse(added.stdout) as { state: string; records: { value: string }[] };
    assert.equal(domain.state, 'verified');
    assert.equal(domain.records[0]!.value, `acme.${SITE}`);
    assert.ok(added.stderr.includes(`asking the service's DNS servers ${zone.address}\n`), added.stderr);
    assert.match(
      added.stderr,
      /PETSTORE_SITE_DOMAIN of this shell is not used: the service's is sites\.service\.test/,
    );
    const own = await cli('domains', 'add', `docs.${SITE}`, '--project', 'acme');
    assert.equal(own.code, 2, 'a name of the service, by its site domain, is refused');
    assert.match(own.stderr, /belongs to this service/);
  });

  it('domains verify of a name two projects claim → exit 2 asking for --project; with it → that claim is checked', async () => {
    const claim = await cli('domains', 'add', 'docs.example.test', '--project', 'zoo');
    assert.equal(claim.code, 0, claim.stderr);
    for (const action of ['verify', 'primary', 'remove']) {
      const ambiguous = await cli('domains', action, 'docs.example.test');
      assert.equal(ambiguous.code, 2, action);
      assert.match(
        ambiguous.stderr,
        /docs\.example\.test is claimed by more than one project \(acme, zoo\): name one with --project <slug>/,
      );
    }
    const verified = await cli('domains', 'verify', 'docs.example.test', '--project', 'acme', '--json');
    assert.equal(verified.code, 0, verified.stderr);
    const checked = JSON.parse(verified.stdout) as { records: { value: string }[] };
    assert.equal(checked.records[0]!.value, `acme.${SITE}`, "acme's claim, with acme's CNAME");
    const unknown = await cli('domains', 'verify', 'nope.example.test');
    assert.equal(unknown.code, 3);
  });

  it('domains list pages: --limit with the next --cursor on stderr, --cursor goes on, --all prints every page', async () => {
    for (const name of ['a.example.test', 'b.example.test', 'c.example.test']) {
      assert.equal((await cli('domains', 'add', name, '--project', 'acme')).code, 0);
    }
    const first = await cli('domains', 'list', '--project', 'acme', '--limit', '2', '--json');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      (JSON.parse(first.stdout) as { hostname: string }[]).map((d) => d.hostname),
      ['docs.example.test', 'a.example.test'],
    );
    const cursor = /--cursor (\S+)/.exec(first.stderr)![1]!;
    const rest = await cli('domains', 'list', '--project', 'acme', '--limit', '2', '--cursor', cursor);
    assert.equal(rest.code, 0, rest.stderr);
    assert.match(rest.stdout, /^b\.example\.test\s+pending/m);
    assert.match(rest.stdout, /^c\.example\.test\s+pending/m);
    assert.doesNotMatch(rest.stdout, /a\.example\.test/);
    const all = await cli('domains', 'list', '--project', 'acme', '--limit', '1', '--all', '--json');
    assert.equal((JSON.parse(all.stdout) as unknown[]).length, 4);
    const bad = await cli('domains', 'list', '--project', 'acme', '--cursor', 'xyz');
    assert.equal(bad.code, 2);
    const misplaced = await cli('domains', 'verify', 'a.example.test', '--all');
    assert.equal(misplaced.code, 2);
  });

  it('the trail: each command by the operator, in the transaction of its change', async () => {
    const trail = await cli('audit', '--project', 'acme', '--json');
    const rows = (JSON.parse(trail.stdout) as { actor: string; action: string; target: string }[]).reverse();
    assert.deepEqual(
      rows
        .filter((row) => row.action.startsWith('domain_'))
        .map((row) => `${row.actor} ${row.action} ${row.target}`),
      [
        'operator domain_added docs.example.test',
        'operator domain_verified docs.example.test: verified',
        'operator domain_added a.example.test',
        'operator domain_added b.example.test',
        'operator domain_added c.example.test',
      ],
    );
  });
});
