import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, killAll, runCli, type ServerProcess, startServe } from './blackbox-process.ts';
import { assertMatchesContract, assertUnknownRouteResponse } from './openapi-validator.ts';
import { rawRequest } from './raw-http.ts';

const INT64_MAX = '9223372036854775807';

describe('petstore as a user runs it', () => {
  const children = new Set<ChildProcess>();
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess;
  let key: string;

  /** fetch against the running server; every response is checked against the contract. */
  async function call(method: string, path: string, options: { key?: string | null; body?: string } = {}) {
    const headers: Record<string, string> = {};
    const token = options.key === undefined ? key : options.key;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}${path}`, { method, headers, body: options.body });
    const body = await response.text();
    assertMatchesContract({ method, path, status: response.status, headers: response.headers, body });
    return { status: response.status, headers: response.headers, body };
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-blackbox-'));
    env = cleanEnv({ DATABASE_URL: join(dir, 'petstore.db'), LOG_LEVEL: 'info' });
    const migrated = await runCli(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    const created = await runCli(['keys', 'create', '--plan', 'free', '--label', 'blackbox'], env);
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(key, /^ps_test_[A-Za-z0-9_-]{43}$/);
    server = await startServe(env, children);
  });

  after(async () => {
    killAll(children);
    await rm(dir, { recursive: true, force: true });
  });

  it('serve → logs JSON lines, the listening one naming an http URL on 127.0.0.1', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(!server.lines.some((line) => line.includes('pets loaded')), 'no pet is loaded before a getPet');
    for (const line of server.lines) JSON.parse(line);
  });

  it('POST /v1/pets → 201, then GET /v1/pets/{id} and GET /v1/pets return the same pet over HTTP', async () => {
    const created = await call('POST', '/v1/pets', {
      body: `{"name":"Rex","categoryId":${INT64_MAX},"status":"sold"}`,
    });
    assert.equal(created.status, 201);
    const id = /^\{"id":(\d+),/.exec(created.body)![1]!;
    assert.equal(created.body, `{"id":${id},"name":"Rex","categoryId":${INT64_MAX},"status":"sold"}`);
    assert.equal(created.headers.get('location'), `/v1/pets/${id}`);
    const fetched = await call('GET', `/v1/pets/${id}`);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.body, created.body, 'int64 digits survive the round trip');
    assert.equal(fetched.headers.get('sunset'), 'Thu, 05 Dec 2030 00:00:00 GMT');
    const warmed = await server.waitForLine((line) => line.includes('"pets loaded into memory"'));
    assert.equal(JSON.parse(warmed).loaded, 1, 'the first getPet loads the existing pets into memory');
    const listed = await call('GET', '/v1/pets?status=sold&limit=100');
    assert.equal(listed.status, 200);
    assert.ok(listed.body.includes(created.body));
    assert.equal(listed.headers.get('x-ratelimit-limit'), '60', 'a free key: 60 per minute');
  });

  it('POST /v1/pets with its body in parts → 201; a client that leaves mid-body → no pet, a 400 line, the server goes on', async () => {
    const port = Number(new URL(server.url).port);
    const head = (length: number) =>
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const body = '{"name":"Parts","categoryId":1}';
    const inParts = await rawRequest({
      port,
      send: [head(body.length) + body.slice(0, 10), body.slice(10)],
      gapMs: 200,
      firstResponseOnly: true,
    });
    assert.equal(inParts.status, 201, inParts.raw);
    assert.match(inParts.body, /"name":"Parts"/);

    const before = await call('GET', '/v1/pets?limit=100');
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(head(100) + '{"name":"Gone",');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const line = await server.waitForLine(
      (text) => text.includes('"msg":"request"') && text.includes('"statusCode":400'),
    );
    assert.equal(JSON.parse(line).method, 'POST');
    const after = await call('GET', '/v1/pets?limit=100');
    assert.equal(after.status, 200);
    assert.equal(after.body, before.body, 'no pet from a body that never ended');
    const answered = server.lines.filter((text) => text.includes('"statusCode":400'));
    assert.equal(answered.length, 1, 'one line for the request that never ended, not one per path');
  });

  it('pipelined creates on one connection → each answered 201, in order, then the connection closes', async () => {
    const port = Number(new URL(server.url).port);
    const create = (name: string, close: boolean) => {
      const body = `{"name":"${name}","categoryId":2}`;
      return (
        `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `${close ? 'Connection: close\r\n' : ''}\r\n${body}`
      );
    };
    const answer = await rawRequest({
      port,
      send: create('Piped one', false) + create('Piped two', false) + create('Piped three', true),
      untilClose: true,
    });
    assert.ok(answer.closed);
    const statuses = [...answer.raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    assert.deepEqual(statuses, [201, 201, 201]);
    const names = [...answer.raw.matchAll(/"name":"(Piped [a-z]+)"/g)].map((match) => match[1]);
    assert.deepEqual(names, ['Piped one', 'Piped two', 'Piped three']);
  });

  it('GET /v1/pets → 401 unauthorized with WWW-Authenticate over HTTP without a key', async () => {
    const response = await call('GET', '/v1/pets', { key: null });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
  });

  it('GET /v1/pets/{petId} → 404 not_found JSON, and GET /nope → 404 Error body over HTTP', async () => {
    const missing = await call('GET', '/v1/pets/987654321');
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).code, 'not_found');
    const response = await fetch(`${server.url}/nope`);
    assertUnknownRouteResponse({
      method: 'GET',
      path: '/nope',
      status: response.status,
      headers: response.headers,
      body: await response.text(),
    });
  });

  it("keys list --json → the management API's Key objects: id, limits and state, never a secret or digest", async () => {
    const listed = await runCli(['keys', 'list', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const keys = JSON.parse(listed.stdout) as Record<string, unknown>[];
    assert.equal(keys.length, 1);
    assert.deepEqual(Object.keys(keys[0]!.limits as object), ['perMinute', 'perDay'], 'the Key object');
    assert.equal(keys[0]!.label, 'blackbox');
    assert.equal(keys[0]!.state, 'active');
    assert.match(keys[0]!.id as string, /^key_/);
    assert.equal(listed.stdout.includes(key), false);
    assert.equal('digest' in keys[0]!, false);
  });

  it('keys revoke <id> → the running server answers 401 for that key from then on', async () => {
    const created = await runCli(['keys', 'create', '--plan', 'pro', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const { id, key: secret } = JSON.parse(created.stdout.trimEnd().split('\n').at(-1)!) as {
      id: string;
      key: string;
    };
    assert.equal((await call('GET', '/v1/pets', { key: secret })).status, 200);
    const revoked = await runCli(['keys', 'revoke', id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const refused = await call('GET', '/v1/pets', { key: secret });
    assert.equal(refused.status, 401);
    const [list, unknown] = await Promise.all([
      runCli(['keys', 'list', '--json'], env),
      runCli(['keys', 'revoke', 'key_nope'], env),
    ]);
    const listed = JSON.parse(list.stdout) as { id: string; state: string }[];
    assert.equal(listed.find((entry) => entry.id === id)?.state, 'revoked');
    assert.equal(unknown.code, 3, 'an unknown id is not found');
  });

  // A fresh connection (agent: false): a keep-alive one would hold the exit for the keep-alive timeout.
  it('SIGTERM → the server finishes the request in flight, then exits 0', async () => {
    const body = '{"name":"Last","categoryId":1}';
    const { port } = new URL(server.url);
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/pets',
          agent: false,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': body.length,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        server
          .waitForLine((line) => line.includes('"shutting down"'))
          .then(() => new Promise((wait) => setTimeout(wait, 200)))
          .then(() => req.end(body.slice(10)), reject);
      }, 300);
    });
    const answered = await response;
    assert.equal(answered.status, 201, answered.text);
    assert.match(answered.text, /"name":"Last"/);
    assert.equal(await server.exited, 0);
  });
});

describe('petstore command line', { concurrency: true }, () => {
  const env = cleanEnv({ DATABASE_URL: join(tmpdir(), 'petstore-blackbox-never-created', 'petstore.db') });
  const commands = [['--help'], ['serve', '--help'], ['migrate', '--help'], ['keys', '--help']];
  const keyCommands = ['create', 'list', 'revoke', 'unban', 'set-plan'].map((command) => [
    'keys',
    command,
    '--help',
  ]);

  for (const args of [...commands, ...keyCommands]) {
    it(`petstore ${args.join(' ')} → exit 0 with usage on stdout`, async () => {
      const result = await runCli(args, env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /petstore/);
      assert.equal(result.stderr, '');
    });
  }

  for (const [name, value] of [
    ['PORT', 'abc'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://localhost/db'],
  ]) {
    it(`petstore serve → exits non-zero with one line naming ${name} when ${name}=${value}`, async () => {
      const result = await runCli(['serve'], cleanEnv({ [name!]: value! }));
      assert.notEqual(result.code, 0);
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.ok(lines[0]!.includes(name!), lines[0]);
      assert.equal(result.stdout, '');
    });
  }

  it('petstore serve --port abc → exits non-zero with one line naming --port', async () => {
    const result = await runCli(['serve', '--port', 'abc'], env);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr.trim(), /^[^\n]*--port[^\n]*$/);
  });
});
