import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp, generateKey, openStoreAt, type Store, systemClock } from '@petstore/server';
import { createMemoryStore, createRateLimiter, type RateLimiter } from '@petstore/server/ratelimit';
import type { FastifyInstance } from 'fastify';
import { deprecationNotice } from '../src/deprecation-notice.ts';
import { progressLine } from '../src/pets-output.ts';
import { cli as runCli } from './run-cli.ts';

const INT64_MAX = '9223372036854775807';

/** Standard error but the mode line every pets command starts with (`petstore: API at …`). */
const besideMode = (stderr: string): string[] =>
  stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('petstore: API at '));

describe('petstore pets (the API from the command line)', () => {
  let dir: string;
  let storage: Store;
  let limiter: RateLimiter;
  let app: FastifyInstance;
  let env: NodeJS.ProcessEnv;

  const pets = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runCli(['pets', ...args], { cwd: dir, env: { ...env, ...extra } });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-pets-cli-'));
    storage = await openStoreAt(join(dir, 'petstore.db'));
    await storage.migrate();
    limiter = createRateLimiter({ store: createMemoryStore(), clock: systemClock });
    app = buildApp({ storage, limiter, clock: systemClock, keyEnvironment: 'test' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { secret, id, digest } = generateKey('test');
    await storage.keys.create({
      id,
      digest,
      plan: 'business',
      perMinute: null,
      perDay: null,
      label: null,
      environment: 'test',
      createdAt: Date.now(),
      expiresAt: null,
    });
    // No path: /v1 is added.
    env = {
      PETSTORE_API_KEY: secret,
      PETSTORE_BASE_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    };
  });

  after(async () => {
    await app?.close();
    await limiter?.close();
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('pets create → a table of the new pet; --json → one JSON line with int64 digit for digit', async () => {
    const table = await pets([
      'create',
      '--name',
      'Rex',
      '--category-id',
      INT64_MAX,
      '--status',
      'available',
    ]);
    assert.equal(table.code, 0, table.stderr);
    assert.deepEqual(table.stdout.trimEnd().split('\n'), [
      'ID  NAME             CATEGORY  STATUS',
      ` 1  Rex   ${INT64_MAX}  available`,
    ]);
    const json = await pets([
      'create',
      '--name',
      'Biscuit',
      '--category-id',
      '-9223372036854775808',
      '--json',
    ]);
    assert.equal(json.stdout, '{"id":2,"name":"Biscuit","categoryId":-9223372036854775808}\n');
  });

  it('pets create with the same --idempotency-key → the first pet replayed, said on stderr', async () => {
    const args = ['create', '--name', 'Once', '--category-id', '7', '--idempotency-key', 'order-1', '--json'];
    const first = await pets(args);
    const second = await pets(args);
    assert.equal(second.stdout, first.stdout);
    assert.match(second.stderr, /replayed: Idempotency-Key order-1 had already created pet 3/);
  });

  it('pets list → one page and how to get the next; --all → every page; --json → JSON lines', async () => {
    for (let i = 0; i < 4; i++)
      await pets(['create', '--name', `Sold ${i}`, '--category-id', String(i), '--status', 'sold']);
    const page = await pets(['list', '--limit', '2']);
    assert.equal(page.code, 0, page.stderr);
    assert.equal(page.stdout.trimEnd().split('\n').length, 3, 'header and two rows');
    const cursor = /--cursor (\S+) for the next page/.exec(page.stderr)?.[1];
    assert.ok(cursor, page.stderr);
    const next = await pets(['list', '--limit', '2', '--cursor', cursor]);
    assert.match(next.stdout, /^ +3 +Once/m);

    const all = await pets(['list', '--all', '--limit', '2']);
    assert.equal(all.stdout.trimEnd().split('\n').length, 8, 'header and seven rows');
    assert.match(all.stderr, /^7 pets$/m);
    assert.doesNotMatch(all.stderr, /\r/, 'no progress line when standard error is not a terminal');

    const sold = await pets(['list', '--all', '--status', 'sold', '--json', '--limit', '3']);
    const lines = sold.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: string });
    assert.equal(lines.length, 4);
    assert.ok(lines.every((pet) => pet.status === 'sold'));
  });

  it('pets get <id> → the pet; an unknown id → exit 3; a malformed id → exit 2', async () => {
    const found = await pets(['get', '1', '--json']);
    assert.equal(found.stdout, `{"id":1,"name":"Rex","categoryId":${INT64_MAX},"status":"available"}\n`);
    const missing = await pets(['get', '999']);
    assert.equal(missing.code, 3);
    assert.match(
      besideMode(missing.stderr).at(-1)!,
      /^petstore: 404 not_found: pet 999 does not exist \(request [\w-]+\)$/,
    );
    const malformed = await pets(['get', '1.5']);
    assert.equal(malformed.code, 2);
  });

  it('pets get → the Deprecation, Sunset and Link headers said on stderr, once, with the replacement; --json stdout untouched', async () => {
    const found = await pets(['get', '1', '--json']);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(found.stdout, `{"id":1,"name":"Rex","categoryId":${INT64_MAX},"status":"available"}\n`);
    const notice = besideMode(found.stderr);
    assert.equal(notice.length, 1, found.stderr);
    assert.match(
      notice[0]!,
      /^petstore: GET \/v1\/pets\/\{petId\} is deprecated since \d{4}-\d\d-\d\d \(Deprecation\) and stops working on 2030-12-05 \(Sunset\), answering 410 gone from then; use GET \/v1\/pets instead \(petstore pets list\); see http:\/\/127\.0\.0\.1:\d+\/docs#\S+$/,
    );
    const missing = await pets(['get', '999']);
    assert.match(missing.stderr, /is deprecated since/, 'the 404 carries the headers too');
    const listed = await pets(['list', '--json']);
    assert.doesNotMatch(listed.stderr, /deprecated/, 'only the deprecated operation says so');
  });

  it('the deprecation notice reads only what the headers say: none without Deprecation, and no more than is given', () => {
    const base = 'https://api.example.com/v1';
    const notice = (headers: Record<string, string>) =>
      deprecationNotice(new Headers(headers), base, 'GET /v1/pets/{petId}', 'petstore pets list');
    assert.equal(notice({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }), undefined);
    assert.equal(notice({ deprecation: '@x' }), 'petstore: GET /v1/pets/{petId} is deprecated');
    assert.equal(
      notice({
        deprecation: '@1767225600',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
        link: '</docs#getPet>; rel="deprecation"; type="text/html", </v1/pets>; rel=successor-version',
      }),
      'petstore: GET /v1/pets/{petId} is deprecated since 2026-01-01 (Deprecation) and stops working on 2030-12-05 (Sunset), answering 410 gone from then; use GET /v1/pets instead (petstore pets list); see https://api.example.com/docs#getPet',
    );
  });

  it('settings and refusals → one line and the documented exit status', async () => {
    const cases: [string[], NodeJS.ProcessEnv, number, RegExp][] = [
      [['list'], { PETSTORE_API_KEY: '' }, 5, /PETSTORE_API_KEY is not set/],
      [['list'], { PETSTORE_BASE_URL: 'ftp://x' }, 2, /PETSTORE_BASE_URL must be an http\(s\) URL/],
      [['list'], { PETSTORE_API_KEY: 'ps_test_wrong' }, 5, /401 unauthorized: .*check PETSTORE_API_KEY/],
      [['list', '--status', 'lost'], {}, 2, /--status must be one of available, pending, sold/],
      [['list', '--limit', '101'], {}, 2, /--limit must be an integer from 1 to 100/],
      [['create', '--name', 'x'], {}, 2, /--category-id is required/],
      [
        ['create', '--name', 'x', '--category-id', '9223372036854775808'],
        {},
        2,
        /--category-id must be a decimal 64-bit integer/,
      ],
      [['create', '--name', ' ', '--category-id', '1'], {}, 2, /400 invalid_body/],
      [['adopt'], {}, 2, /unknown pets command "adopt"/],
    ];
    const results = await Promise.all(cases.map(([args, extra]) => pets(args, extra)));
    results.forEach((result, index) => {
      const [args, , code, pattern] = cases[index]!;
      assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(besideMode(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, pattern);
    });
  });

  it('pets list → a 429 is waited out for Retry-After, then retried', async () => {
    let calls = 0;
    const server: Server = createServer((_request, response) => {
      calls++;
      if (calls === 1) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end('{"code":"rate_limited","message":"rate limit exceeded: retry after 1 s","status":429}');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('[{"id":1,"name":"Rex","categoryId":3}]');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const started = Date.now();
      const result = await pets(['list'], { PETSTORE_BASE_URL: url });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(Date.now() - started >= 1_000, 'waited at least Retry-After');
      assert.match(result.stderr, /waiting 1 s before retrying/);
      assert.match(result.stdout, /Rex/);
      assert.equal(calls, 2);
    } finally {
      server.close();
    }
  });

  it('progress line → rewritten in place on a terminal, cleared at the end; nothing elsewhere', () => {
    const written: string[] = [];
    const terminal = {
      isTTY: true,
      write: (text: string) => written.push(text),
    } as unknown as NodeJS.WriteStream;
    const progress = progressLine(terminal);
    progress.update('fetched 20 pets…');
    progress.clear();
    assert.deepEqual(written, ['\r\x1b[Kfetched 20 pets…', '\r\x1b[K']);
    const piped: string[] = [];
    const pipe = progressLine({
      isTTY: false,
      write: (text: string) => piped.push(text),
    } as unknown as NodeJS.WriteStream);
    pipe.update('x');
    pipe.clear();
    assert.deepEqual(piped, []);
  });
});
