import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDnsResolver } from '../src/features/domains/dns.ts';
import { parseDomain } from '../src/features/domains/hostname.ts';
import { verifyDomain } from '../src/features/domains/verify.ts';
import { zoneResolver } from './zone-resolver.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';

const TARGET = 'acme.sites.example.test';
const OWN = { siteDomain: 'sites.example.test', apiHost: 'api.example.test' };

describe('parseDomain', () => {
  it('makes a typed name canonical: case, spaces, trailing dot, IDN to punycode; finds the apex', () => {
    assert.deepEqual(parseDomain('  Docs.Example.COM. ', OWN), { hostname: 'docs.example.com', apex: false });
    assert.deepEqual(parseDomain('bücher.example', OWN), { hostname: 'xn--bcher-kva.example', apex: true });
    assert.deepEqual(parseDomain('example.co.uk', OWN), { hostname: 'example.co.uk', apex: true });
    assert.deepEqual(parseDomain('docs.example.co.uk', OWN), { hostname: 'docs.example.co.uk', apex: false });
    assert.deepEqual(parseDomain('docs.example.test', OWN), { hostname: 'docs.example.test', apex: false });
  });

  it('refuses IPs, wildcards, single labels, public suffixes, URLs and the service own names', () => {
    for (const [text, reason] of [
      ['', /enter a domain/],
      ['203.0.113.9', /IP address/],
      ['[2001:db8::1]', /IP address/],
      ['2001:db8::1', /IP address/],
      ['*.example.com', /wildcard/],
      ['intranet', /single label/],
      ['co.uk', /public suffix/],
      ['github.io', /public suffix/],
      ['https://docs.example.com/', /without scheme/],
      ['docs.example.com:8443', /without scheme/],
      ['exa mple.com', /without scheme|not a valid/],
      ['-bad.example.com', /not a valid/],
      [`${'a'.repeat(64)}.example.com`, /not a valid/],
      ['acme.sites.example.test', /belongs to this service/],
      ['sites.example.test', /belongs to this service/],
      ['api.example.test', /belongs to this service/],
      ['app.localhost', /localhost/],
    ] as const) {
      const parsed = parseDomain(text, OWN);
      assert.ok('problem' in parsed, text);
      assert.match(parsed.problem, reason, text);
    }
  });
});

describe('verifyDomain with real DNS queries to a zone on loopback', () => {
  let zone: ZoneServer;
  const verify = (hostname: string, apex = false, token = 'tok123') =>
    verifyDomain(
      createDnsResolver([zone.address]),
      { hostname, apex, token, target: TARGET },
      'letsencrypt.org',
    );

  before(async () => {
    zone = await startZoneServer();
    zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
  });
  after(() => zone.close());

  it('a CNAME to the project target → verified, and the page can show the chain', async () => {
    zone.set('docs.right.test', [{ type: 'CNAME', value: TARGET }]);
    const result = await verify('docs.right.test');
    assert.equal(result.state, 'verified');
    assert.equal(result.reason, null);
    assert.deepEqual(result.records, [
      { type: 'CNAME', name: 'docs.right.test', value: TARGET, ok: true, seen: [TARGET] },
    ]);
  });

  it('a CNAME chain through another name that ends at the target → verified', async () => {
    zone.set('docs.chain.test', [{ type: 'CNAME', value: 'edge.provider.test' }]);
    zone.set('edge.provider.test', [{ type: 'CNAME', value: TARGET }]);
    assert.equal((await verify('docs.chain.test')).state, 'verified');
  });

  it('a CNAME to another target → failed, naming it', async () => {
    zone.set('docs.other.test', [{ type: 'CNAME', value: 'other.sites.example.test' }]);
    const result = await verify('docs.other.test');
    assert.equal(result.state, 'failed');
    assert.equal(
      result.reason,
      `the CNAME of docs.other.test points to other.sites.example.test, not to ${TARGET}: change the CNAME to ${TARGET}`,
    );
  });

  it('an existing A record at the name → failed, naming the address and what to do (the spec rule)', async () => {
    zone.set('docs.conflict.test', [{ type: 'A', value: '203.0.113.9' }]);
    const result = await verify('docs.conflict.test');
    assert.equal(result.state, 'failed');
    assert.equal(
      result.reason,
      `an A record 203.0.113.9 exists for docs.conflict.test; delete it, then add the CNAME to ${TARGET}`,
    );
    assert.deepEqual(result.records[0]!.seen, ['203.0.113.9']);
    zone.set('docs.conflict6.test', [{ type: 'AAAA', value: '2001:db8::9' }]);
    assert.match((await verify('docs.conflict6.test')).reason!, /^an AAAA record 2001:db8::9 exists/);
  });

  it('nothing yet → pending with what to do; when the CNAME appears → verified; when it goes → pending again', async () => {
    const before = await verify('docs.later.test');
    assert.equal(before.state, 'pending');
    assert.match(before.reason!, /no CNAME for docs.later.test yet.*48 hours/);
    zone.set('docs.later.test', [{ type: 'CNAME', value: TARGET }]);
    assert.equal((await verify('docs.later.test')).state, 'verified');
    zone.set('docs.later.test', []);
    assert.equal((await verify('docs.later.test')).state, 'pending');
  });

  it('an apex with ALIAS (the target addresses) and the TXT token → verified; without the TXT → failed naming it', async () => {
    zone.set('apex.test', [{ type: 'A', value: '198.51.100.7' }]);
    const missing = await verify('apex.test', true);
    assert.equal(missing.state, 'failed');
    assert.equal(
      missing.reason,
      'the TXT record _petstore.apex.test is missing or has another value: set it to petstore-verify=tok123',
    );
    zone.set('_petstore.apex.test', [{ type: 'TXT', value: 'petstore-verify=tok123' }]);
    const result = await verify('apex.test', true);
    assert.equal(result.state, 'verified');
    assert.deepEqual(
      result.records.map(({ type, ok }) => [type, ok]),
      [
        ['ALIAS', true],
        ['TXT', true],
      ],
    );
    assert.equal(
      (await verify('apex.test', true, 'another-token')).state,
      'failed',
      "another project's token",
    );
  });

  it('an apex pointing elsewhere → failed with both address sets', async () => {
    zone.set('elsewhere.test', [{ type: 'A', value: '203.0.113.50' }]);
    zone.set('_petstore.elsewhere.test', [{ type: 'TXT', value: 'petstore-verify=tok123' }]);
    const result = await verify('elsewhere.test', true);
    assert.equal(result.state, 'failed');
    assert.match(
      result.reason!,
      /the apex elsewhere.test resolves to 203.0.113.50, not to acme.sites.example.test \(198.51.100.7\)/,
    );
  });

  it('a CAA record that allows another CA only → a warning with the record to add; one that allows ours → none', async () => {
    zone.set('docs.caa.test', [{ type: 'CNAME', value: TARGET }]);
    zone.set('caa.test', [{ type: 'CAA', tag: 'issue', value: 'sectigo.com' }]);
    const result = await verify('docs.caa.test');
    assert.equal(result.state, 'verified');
    assert.deepEqual(result.warnings, [
      'the CAA records of caa.test allow only sectigo.com to issue certificates, so no certificate can be issued for docs.caa.test: add the record caa.test. CAA 0 issue "letsencrypt.org"',
    ]);
    zone.set('caa.test', [{ type: 'CAA', tag: 'issue', value: 'letsencrypt.org' }]);
    assert.deepEqual((await verify('docs.caa.test')).warnings, []);
  });

  it('a DNS server that does not answer → unanswered with the reason, within the bounded time', async () => {
    const started = Date.now();
    const result = await verifyDomain(
      createDnsResolver(['127.0.0.1:9'], { timeoutMs: 300 }),
      { hostname: 'docs.right.test', apex: false, token: 't', target: TARGET },
      'letsencrypt.org',
    );
    assert.equal(result.state, 'unanswered');
    assert.match(result.reason!, /for docs\.right\.test$/);
    assert.ok(Date.now() - started < 5_000);
  });

  describe('no answer is not an answer: timeout, refusal, SERVFAIL, a stopped server → unanswered, never pending or failed', () => {
    const check = (hostname: string, apex = false) =>
      verifyDomain(
        zoneResolver(zone),
        { hostname, apex, token: 'tok123', target: TARGET },
        'letsencrypt.org',
      );
    after(() => zone.behave('answer'));

    for (const [mode, why] of [
      ['silent', /^no answer from DNS in time for docs\.right\.test$/],
      ['refuse', /^the DNS server refused the query \(REFUSED\) for docs\.right\.test$/],
      ['servfail', /^the DNS server could not answer \(SERVFAIL\) for docs\.right\.test$/],
      [{ delayMs: 1_500 }, /^no answer from DNS in time for docs\.right\.test$/],
    ] as const) {
      it(`zone ${JSON.stringify(mode)} → unanswered, naming why; the apex too`, async () => {
        zone.behave(mode);
        const result = await check('docs.right.test');
        assert.equal(result.state, 'unanswered');
        assert.match(result.reason!, why);
        assert.equal((await check('apex.test', true)).state, 'unanswered');
        zone.behave('answer');
        assert.equal((await check('docs.right.test')).state, 'verified');
      });
    }

    it('zone stopped (closed port) → unanswered, the connection refused; listening again → verified', async () => {
      await zone.stop();
      try {
        const result = await check('docs.right.test');
        assert.equal(result.state, 'unanswered');
        assert.match(
          result.reason!,
          /^(the DNS server refused the connection|no answer from DNS in time) for/,
        );
      } finally {
        await zone.restart();
      }
      assert.equal((await check('docs.right.test')).state, 'verified');
    });
  });
});
