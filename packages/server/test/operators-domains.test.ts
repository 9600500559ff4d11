import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, killAll, runCli, type ServerProcess, startServe } from './blackbox-process.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { TEST_CHANGE_POLL_MS } from './eventually.ts';

const TARGET = 'acme.sites.test';

/** GET over a real socket with the Host header a visitor's browser would send. */
function visit(server: ServerProcess, host: string, path = '/') {
  const { port } = new URL(server.url);
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `visit` until the answer has `status`: the server learns of a change made by another process (the
 * command line's) at its next refresh. No deadline of its own (the test's time-out stops a hang).
 */
async function visitOnceLearned(server: ServerProcess, host: string, status: number, path = '/') {
  let page = await visit(server, host, path);
  while (page.status !== status) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    page = await visit(server, host, path);
  }
  return page;
}

interface DomainJson {
  hostname: string;
  state: string;
  reason: string | null;
  primary: boolean;
  records: { type: string; name: string; value: string; ok: boolean }[];
}

// DESIGN.md's operator interface for custom domains, run as programs against a real server process and a
// DNS zone on loopback that plays the customer's DNS provider.
describe('petstore domains, as an operator runs it, with the server answering by host', () => {
  const children = new Set<ChildProcess>();
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let zone: ZoneServer;
  let server: ServerProcess;
  const cli = (...args: string[]) => runCli(args, env);
  const json = async (...args: string[]) => {
    const result = await cli(...args, '--json');
    return { ...result, value: JSON.parse(result.stdout || 'null') as DomainJson };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-domains-cli-'));
    zone = await startZoneServer();
    zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
    env = cleanEnv({
      DATABASE_URL: join(dir, 'petstore.db'),
      PETSTORE_SITE_DOMAIN: 'sites.test',
      // As in production: names that are not served answer nothing.
      PETSTORE_API_HOST: 'api.test',
      PETSTORE_DNS_SERVERS: zone.address,
      PETSTORE_CHANGE_POLL_MS: String(TEST_CHANGE_POLL_MS),
    });
    assert.equal((await runCli(['migrate'], env)).code, 0);
    const created = await cli(
      'projects',
      'create',
      '--name',
      'Acme Docs',
      '--slug',
      'acme',
      '--plan',
      'free',
    );
    assert.equal(created.code, 0, created.stderr);
    server = await startServe(env, children);
  });
  after(async () => {
    killAll(children);
    await zone.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('domains add below Pro → exit 5 naming the plan needed; after projects set-plan pro → the records to create', async () => {
    const refused = await cli('domains', 'add', 'docs.example.test', '--project', 'acme');
    assert.equal(refused.code, 5, 'not allowed on this plan');
    assert.match(refused.stderr, /custom domains need the Pro plan or above; Acme Docs is on the Free plan/);
    assert.equal((await cli('projects', 'set-plan', 'acme', '--plan', 'pro')).code, 0);

    const added = await cli('domains', 'add', 'Docs.Example.TEST.', '--project', 'acme');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^docs\.example\.test: pending$/m);
    assert.match(added.stdout, /CNAME\s+docs\.example\.test\s+acme\.sites\.test\s+nothing yet/);
    assert.match(added.stdout, /48 hours/);
    const apex = await json('domains', 'add', 'example.test', '--project', 'acme');
    assert.equal(apex.code, 0, apex.stderr);
    assert.deepEqual(
      apex.value.records.map(({ type, name }) => [type, name]),
      [
        ['ALIAS', 'example.test'],
        ['TXT', '_petstore.example.test'],
      ],
    );
    assert.match(apex.value.records[1]!.value, /^petstore-verify=[0-9a-f]{32}$/);
  });

  it('domains verify while nothing is in DNS → exit 1, pending, with the reason; nothing served on that host', async () => {
    const result = await json('domains', 'verify', 'docs.example.test');
    assert.equal(result.code, 1);
    assert.equal(result.value.state, 'pending');
    assert.match(result.value.reason!, /No CNAME for docs\.example\.test yet/);
    assert.deepEqual(
      Object.keys(result.value).filter((k) =>
        ['hostname', 'state', 'reason', 'primary', 'records'].includes(k),
      ),
      ['hostname', 'state', 'reason', 'primary', 'records'],
    );
    const page = await visit(server, 'docs.example.test');
    assert.equal(page.status, 404);
    assert.doesNotMatch(page.body, /petstore-docs-title/);
  });

  it('the CNAME created → verify exits 0, verified and primary; the server serves it, and the default host 301s to it', async () => {
    zone.set('docs.example.test', [{ type: 'CNAME', value: TARGET }]);
    const result = await json('domains', 'verify', 'docs.example.test');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.value.state, 'verified');
    assert.equal(result.value.primary, true);
    assert.deepEqual(
      result.value.records.map(({ type, ok }) => [type, ok]),
      [['CNAME', true]],
    );
    // The server learns of a domain added by another process at its next refresh.
    const page = await visitOnceLearned(server, 'docs.example.test', 200);
    assert.equal(page.status, 200);
    assert.match(page.body, /petstore-docs-title" content="Acme Docs"/);
    const moved = await visit(server, 'acme.sites.test', '/?tab=pets');
    assert.equal(moved.status, 301);
    assert.equal(moved.location, 'http://docs.example.test/?tab=pets');
  });

  it("domains verify from a shell without PETSTORE_DNS_SERVERS, or with others → asks the service's DNS servers: the live domain stays verified, stderr names them", async () => {
    const { PETSTORE_DNS_SERVERS: _, ...withoutServers } = env;
    for (const shell of [withoutServers, { ...env, PETSTORE_DNS_SERVERS: '127.0.0.1:9' }]) {
      const result = await runCli(['domains', 'verify', 'docs.example.test', '--json'], shell);
      assert.equal(result.code, 0, result.stderr);
      const value = JSON.parse(result.stdout) as DomainJson;
      assert.equal(value.state, 'verified');
      assert.equal(value.primary, true);
      assert.ok(result.stderr.includes(`asking the service's DNS servers ${zone.address}\n`), result.stderr);
    }
    const warned = await runCli(['domains', 'verify', 'docs.example.test'], {
      ...env,
      PETSTORE_DNS_SERVERS: '127.0.0.1:9',
    });
    assert.match(
      warned.stderr,
      /PETSTORE_DNS_SERVERS of this shell is not used: checking with the service's DNS servers 127\.0\.0\.1:\d+/,
    );
    assert.match(warned.stdout, /docs\.example\.test: verified/);
    assert.doesNotMatch(warned.stdout, /48 hours/, 'a verified domain has been seen: no propagation note');
    assert.equal((await visit(server, 'docs.example.test')).status, 200);
  });

  it('an A record at a name → verify exits 1, failed, naming the address', async () => {
    zone.set('blocked.example.test', [{ type: 'A', value: '203.0.113.9' }]);
    assert.equal((await cli('domains', 'add', 'blocked.example.test', '--project', 'acme')).code, 0);
    const result = await json('domains', 'verify', 'blocked.example.test');
    assert.equal(result.code, 1);
    assert.equal(result.value.state, 'failed');
    assert.match(
      result.value.reason!,
      /A record 203\.0\.113\.9 exists for blocked\.example\.test; delete it/,
    );
  });

  it('domains primary on another verified domain → exit 0 and the redirects turn; on an unverified one → exit 6', async () => {
    zone.set('www.example.test', [{ type: 'CNAME', value: TARGET }]);
    assert.equal((await cli('domains', 'add', 'www.example.test', '--project', 'acme')).code, 0);
    const made = await cli('domains', 'primary', 'www.example.test');
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /www\.example\.test is the primary domain of acme/);
    const moved = await visit(server, 'docs.example.test', '/x');
    assert.equal(moved.status, 301);
    assert.equal(moved.location, 'http://www.example.test/x');
    const refused = await cli('domains', 'primary', 'blocked.example.test');
    assert.equal(refused.code, 6, 'a conflict: not verified');
    assert.match(refused.stderr, /must be verified before it can be the primary domain/);
  });

  it('domains list → every domain with state, primary and reason; --json an array with the records', async () => {
    const table = await cli('domains', 'list', '--project', 'acme');
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^HOSTNAME\s+STATE\s+PRIMARY\s+CHECKED\s+REASON$/m);
    assert.match(table.stdout, /^www\.example\.test\s+verified\s+yes\s/m);
    assert.match(table.stdout, /^blocked\.example\.test\s+failed\s/m);
    const listed = await cli('domains', 'list', '--project', 'acme', '--json');
    const domains = JSON.parse(listed.stdout) as DomainJson[];
    assert.deepEqual(
      domains.map((d) => [d.hostname, d.state, d.primary]),
      [
        ['docs.example.test', 'verified', false],
        ['example.test', 'pending', false],
        ['blocked.example.test', 'failed', false],
        ['www.example.test', 'verified', true],
      ],
    );
  });

  it('domains remove → exit 0, and the running server stops serving it on the next request', async () => {
    assert.equal((await visitOnceLearned(server, 'www.example.test', 200)).status, 200);
    const removed = await cli('domains', 'remove', 'www.example.test');
    assert.equal(removed.code, 0, removed.stderr);
    for (const path of ['/', '/docs']) {
      const page = await visit(server, 'www.example.test', path);
      assert.equal(page.status, 404, path);
      assert.doesNotMatch(page.body, /petstore-docs-title|API reference/, path);
    }
    const remaining = await visitOnceLearned(server, 'docs.example.test', 200);
    assert.equal(remaining.status, 200, 'the remaining domain is primary');
    const again = await cli('domains', 'remove', 'www.example.test');
    assert.equal(again.code, 3);
    assert.match(again.stderr, /no project has the domain www\.example\.test/);
  });

  it('usage errors → exit 2 with one line; a domain of another project named with --project → exit 3', async () => {
    await cli('projects', 'create', '--name', 'Zoo', '--slug', 'zoo', '--plan', 'pro');
    for (const [args, pattern] of [
      [['domains'], /domains needs one of add, list, verify, primary, remove/],
      [['domains', 'fly'], /unknown domains command "fly"/],
      [['domains', 'add', 'x.example.test'], /domains add needs --project <slug>/],
      [['domains', 'list', 'x', '--project', 'acme'], /domains list takes no hostname/],
      [['domains', 'add', '203.0.113.9', '--project', 'acme'], /an IP address is not a domain name/],
    ] as const) {
      const result = await cli(...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, pattern);
    }
    const unknown = await cli('domains', 'add', 'docs.example.test', '--project', 'nope');
    assert.equal(unknown.code, 3, 'an unknown project is not found');
    assert.match(unknown.stderr, /no project with slug nope/);
    const claim = await json('domains', 'add', 'docs.example.test', '--project', 'zoo');
    assert.equal(claim.code, 0, 'a name another project holds is added as a claim');
    assert.doesNotMatch(claim.stdout, /acme/, 'the holder is never named');
    assert.deepEqual(
      claim.value.records.map(({ type, name }) => [type, name]),
      [
        ['CNAME', 'docs.example.test'],
        ['TXT', '_petstore.docs.example.test'],
      ],
    );
    const again = await json('domains', 'add', 'docs.example.test', '--project', 'zoo');
    assert.equal(again.code, 6, 'a conflict: the project has it');
    assert.deepEqual(again.value, {
      code: 'domain_exists',
      message: 'this project already has docs.example.test',
      status: 409,
    });
    const theirs = await cli('domains', 'remove', 'docs.example.test', '--project', 'zoo');
    assert.equal(theirs.code, 0, 'the claim of zoo is removed, not the name');
    assert.equal((await visitOnceLearned(server, 'docs.example.test', 200)).status, 200, 'still served');
    const help = await cli('domains', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /domains verify <hostname> \[--json\]/);
  });

  it('audit → every domain command that changed or checked something, for its project, by the operator', async () => {
    const trail = async (slug: string) => {
      const result = await cli('audit', '--project', slug, '--json');
      assert.equal(result.code, 0, result.stderr);
      return (JSON.parse(result.stdout) as { actor: string; action: string; target: string }[])
        .reverse()
        .map((row) => `${row.actor} ${row.action} ${row.target}`);
    };
    const verified = 'operator domain_verified docs.example.test: verified';
    assert.deepEqual(await trail('acme'), [
      'operator project_created Acme Docs (free)',
      'operator plan_changed free → pro',
      'operator domain_added docs.example.test',
      'operator domain_added example.test',
      'operator domain_checked docs.example.test: pending',
      verified,
      verified,
      verified,
      verified,
      'operator domain_added blocked.example.test',
      'operator domain_checked blocked.example.test: failed',
      'operator domain_added www.example.test',
      'operator domain_primary www.example.test',
      'operator domain_removed www.example.test',
    ]);
    assert.deepEqual(await trail('zoo'), [
      'operator project_created Zoo (pro)',
      'operator domain_added docs.example.test',
      'operator domain_removed docs.example.test',
    ]);
  });
});
