import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:http';
import { after, afterEach, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { chainOf, type HttpsAnswer, until } from './tls-client.ts';
import { skipWithoutTlsTools } from './tls-tools.ts';
import { API_HOST, SITE_DOMAIN, startTlsStack, type TlsStack } from './tls-stack.ts';

const PASSWORD = 'correct horse battery staple';
const TARGET = `acme.${SITE_DOMAIN}`;
const CNAME = [{ type: 'CNAME' as const, value: TARGET }];

let stack: TlsStack;

/** The project's docs page, titled with its name. */
const isDocs = (answer: HttpsAnswer) =>
  answer.status === 200 && answer.body.includes('<title>Acme Docs · API reference</title>');

const cli = async (...args: string[]) => {
  const result = await stack.cli(args);
  assert.equal(result.code, 0, `petstore ${args.join(' ')}: ${result.stderr}${result.stdout}`);
  return result.stdout;
};

/** `petstore domains add … --json`, the domain as it was just checked. */
const addDomain = async (hostname: string) =>
  JSON.parse(await cli('domains', 'add', hostname, '--project', 'acme', '--json')) as {
    state: string;
    records: { type: string; name: string; value: string }[];
  };

/** The first answer for `host` that `accept` takes: a new domain is routed by the service from its next host refresh. */
const once = (host: string, path: string, accept: (answer: HttpsAnswer) => boolean) =>
  until(`${host}${path}`, async () => {
    const answer = await stack.https(host, path);
    return accept(answer) ? answer : undefined;
  });

/** GET on the service's internal listener, as Caddy asks it; the path is sent as it is (no URL normalisation). */
const direct = (path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(stack.internalUrl);
    request({ host: hostname, port, path }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });

describe(
  'TLS end to end: Caddy (deploy/Caddyfile) + Pebble + petstore serve, offline',
  { skip: skipWithoutTlsTools },
  () => {
    before(async () => {
      stack = await startTlsStack();
      stack.zone.set(TARGET, [{ type: 'A', value: '127.0.0.1' }]);
      await cli('projects', 'create', '--name', 'Acme Docs', '--slug', 'acme', '--plan', 'pro');
      const created = await stack.cli(['admin', 'create', '--email', 'ann@example.com'], `${PASSWORD}\n`);
      assert.equal(created.code, 0, created.stderr);
      await cli('admin', 'add-member', '--email', 'ann@example.com', '--project', 'acme');
    });
    afterEach((t) => {
      if ((t as { passed?: boolean }).passed === false && stack) console.error(stack.logs());
    });
    after(() => stack?.stop());

    it('a domain verified by DNS gets a certificate from Pebble that chains to its root, and HTTPS serves the docs', async () => {
      const added = await addDomain('docs.acme.test');
      assert.equal(added.state, 'pending');
      assert.deepEqual(added.records, [
        { type: 'CNAME', name: 'docs.acme.test', value: TARGET, ok: false, seen: [] },
      ]);
      stack.zone.set('docs.acme.test', CNAME);
      await cli('domains', 'verify', 'docs.acme.test');

      const page = await once('docs.acme.test', '/', isDocs);
      assert.equal(page.authorized, true, 'the chain verifies against Pebble’s root');
      const root = new X509Certificate(stack.pebble.root);
      const [leaf, intermediate, ...rest] = chainOf(page.certificate);
      assert.ok(leaf && intermediate, 'Caddy sends the leaf and its intermediate');
      assert.deepEqual(
        rest.map((certificate) => certificate.fingerprint256),
        [root.fingerprint256],
        'the verified chain ends at Pebble’s root',
      );
      assert.equal(leaf.checkHost('docs.acme.test'), 'docs.acme.test');
      assert.ok(leaf.verify(intermediate.publicKey) && leaf.checkIssued(intermediate));
      assert.ok(intermediate.verify(root.publicKey) && intermediate.checkIssued(root));
      assert.match(root.subject, /Pebble Root CA/);
      assert.equal(
        page.headers['strict-transport-security'],
        'max-age=31536000',
        'every answer over TLS carries HSTS (this name only, no includeSubDomains)',
      );
    });

    it('an unverified domain and a name never added get no certificate: Caddy asks, hears 404, ends the handshake', async () => {
      assert.equal((await addDomain('pending.acme.test')).state, 'pending');
      for (const host of ['pending.acme.test', 'never-added.example.test']) {
        assert.equal((await direct(`/internal/tls/ask?domain=${host}`)).status, 404);
        const handshake = await stack.handshake(host);
        assert.equal(handshake.ok, false, `${host} got a certificate`);
      }
      assert.doesNotMatch(stack.pebble.output(), /pending\.acme\.test|never-added/, 'the CA was never asked');
    });

    it('a domain removed before its first HTTPS visit never gets a certificate', async () => {
      stack.zone.set('gone.acme.test', CNAME);
      assert.equal((await addDomain('gone.acme.test')).state, 'verified');
      assert.equal(
        (await direct('/internal/tls/ask?domain=gone.acme.test')).status,
        200,
        'allowed while verified',
      );
      await cli('domains', 'remove', 'gone.acme.test');
      assert.equal((await direct('/internal/tls/ask?domain=gone.acme.test')).status, 404);
      assert.equal((await stack.handshake('gone.acme.test')).ok, false);
    });

    it('301s hold over HTTPS: an extra domain and the default host redirect to the primary, same path and query', async () => {
      stack.zone.set('www.acme.test', CNAME);
      assert.equal((await addDomain('www.acme.test')).state, 'verified');
      const port = stack.httpsPort;
      const redirects = async (from: string[], to: string) => {
        for (const host of from) {
          const answer = await once(host, '/same/path?and=query', (a) => a.status === 301);
          assert.equal(answer.headers.location, `https://${to}:${port}/same/path?and=query`, host);
          assert.equal(answer.authorized, true);
          // A client cannot make the service believe the request came over plain HTTP: Caddy replaces it.
          const spoofed = await stack.https(host, '/x', { headers: { 'x-forwarded-proto': 'http' } });
          assert.equal(spoofed.headers.location, `https://${to}:${port}/x`);
        }
      };
      await redirects(['www.acme.test', TARGET], 'docs.acme.test');
      await cli('domains', 'primary', 'www.acme.test');
      await redirects(['docs.acme.test', TARGET], 'www.acme.test');
      assert.ok(isDocs(await stack.https('www.acme.test', '/')));
    });

    it('the dashboard shows each certificate as issued by Pebble with its expiry, read from Caddy (PETSTORE_TLS_PROBE)', async () => {
      const jar = new Map<string, string>();
      const send = async (path: string, form?: Record<string, string>) => {
        const answer = await stack.https(API_HOST, path, {
          method: form ? 'POST' : 'GET',
          headers: {
            cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
            ...(form
              ? {
                  'content-type': 'application/x-www-form-urlencoded',
                  origin: `https://${API_HOST}:${stack.httpsPort}`,
                }
              : {}),
          },
          body: form ? new URLSearchParams(form).toString() : undefined,
        });
        for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
          const [pair = ''] = line.split(';');
          jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
        }
        return answer;
      };
      const signIn = await send('/dashboard/sign-in');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(signIn.body)?.[1] ?? '';
      const signedIn = await send('/dashboard/sign-in', {
        _csrf: csrf,
        email: 'ann@example.com',
        password: PASSWORD,
      });
      assert.equal(signedIn.status, 303, signedIn.body);
      const page = await send('/dashboard/projects/acme/domains');
      assert.equal(page.status, 200);
      const text = page.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      for (const host of ['docs.acme.test', 'www.acme.test']) {
        const handshake = await stack.handshake(host);
        assert.ok(handshake.ok);
        const expiry = new Date(handshake.certificate.valid_to).toISOString().slice(0, 10);
        const issuer = String(handshake.certificate.issuer.CN);
        assert.match(issuer, /^Pebble Intermediate CA/);
        assert.ok(
          text.includes(`TLS certificate issued by ${issuer}, valid until ${expiry}`),
          `${host} in: ${text}`,
        );
      }
      assert.doesNotMatch(text, /pending\.acme\.test[^.]*TLS certificate issued/);
    });

    it('removal stops HTTPS traffic at once, though Caddy still holds and presents the certificate', async () => {
      assert.equal((await stack.https('docs.acme.test', '/same/path')).status, 301, 'served until removed');
      await cli('domains', 'remove', 'docs.acme.test');
      const after = await stack.https('docs.acme.test', '/');
      assert.equal(after.certificate.subjectaltname, 'DNS:docs.acme.test', 'Caddy still has the certificate');
      assert.equal(after.authorized, true);
      assert.equal(after.status, 404);
      assert.ok(!after.body.includes('API reference') && !after.body.includes('Acme Docs'), after.body);
      const redirect = await stack.https('docs.acme.test', '/same/path');
      assert.equal(redirect.status, 404, 'no redirect to the primary either');
      assert.ok(isDocs(await stack.https('www.acme.test', '/')), 'the primary is still served');
    });

    it('/internal/* never reaches the service through Caddy, however the path is spelled (generated paths)', async () => {
      const spelling = (word: string) =>
        fc
          .array(fc.constantFrom('as is', 'upper', 'escaped', 'ESCAPED'), {
            minLength: word.length,
            maxLength: word.length,
          })
          .map((how) =>
            [...word]
              .map((char, i) => {
                const hex = char.charCodeAt(0).toString(16);
                return {
                  'as is': char,
                  upper: char.toUpperCase(),
                  escaped: `%${hex}`,
                  ESCAPED: `%${hex.toUpperCase()}`,
                }[how[i]!]!;
              })
              .join(''),
          );
      const separator = fc.constantFrom('/', '//', '/./', '/x/../', '/%2e/', '/%2F');
      const paths = fc
        .tuple(
          separator,
          spelling('internal'),
          separator,
          spelling('tls'),
          separator,
          spelling('ask'),
          fc.constantFrom('', '/', '.', ';x', '%20'),
        )
        .map((parts) => `${parts.join('')}?domain=www.acme.test`);
      let reachedDirectly = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(API_HOST, 'www.acme.test', TARGET), paths, async (host, path) => {
          if ((await direct(path)).body.includes('"allowed":true')) reachedDirectly++;
          const proxied = await stack.https(host, path);
          assert.ok(
            !proxied.body.includes('"allowed"'),
            `${host}${path} reached the ask through Caddy: ${proxied.status}`,
          );
        }),
        { numRuns: 60, examples: [[API_HOST, '/internal/tls/ask?domain=www.acme.test']] },
      );
      assert.ok(reachedDirectly > 0, 'the generated paths do reach the ask on the service itself');
    });
  },
);
