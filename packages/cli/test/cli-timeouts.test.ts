import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliResult, cli } from './run-cli.ts';

/** One line on standard error, `petstore: …` (beside the pets commands' mode line), nothing on standard output. */
function assertOneLine(result: CliResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, result.stderr);
  assert.equal(result.stdout, '');
  const lines = result.stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('petstore: API at '));
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0]!, /^petstore: /);
  assert.match(lines[0]!, pattern);
}

/** A TCP server that accepts every connection and then does what `answer` says (or nothing at all). */
async function listen(answer: (socket: Socket) => void = () => undefined): Promise<Server & { url: string }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    answer(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = server.close.bind(server);
  return Object.assign(server, {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: (callback?: (error?: Error) => void) => {
      for (const socket of sockets) socket.destroy();
      return close(callback);
    },
  });
}

describe('petstore never hangs: connect and read timeouts on every HTTP call, one line, exit 4', () => {
  let dir: string;
  let silent: Server & { url: string };
  let stalled: Server & { url: string };
  const pets = (args: string[], env: NodeJS.ProcessEnv) =>
    cli(['pets', ...args], { cwd: dir, env: { PETSTORE_API_KEY: 'ps_test_x', ...env } });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-timeouts-'));
    silent = await listen();
    // Headers, then a body that never ends.
    stalled = await listen((socket) =>
      socket.once('data', () =>
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n[{"id":1,',
        ),
      ),
    );
  });

  after(async () => {
    silent?.close();
    stalled?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a server that accepts and never answers → exit 4 with one line once --timeout has passed', async () => {
    const started = performance.now();
    const result = await pets(['list', '--timeout', '0.5'], { PETSTORE_BASE_URL: silent.url });
    const elapsed = performance.now() - started;
    assertOneLine(
      result,
      4,
      /cannot reach the API at http:\/\/127\.0\.0\.1:\d+\/v1: no answer for 0\.5 s \(the read timeout\)/,
    );
    assert.ok(elapsed >= 500, `gave up after ${elapsed} ms, before the timeout`);
    assert.ok(elapsed < 2_500, `gave up after ${elapsed} ms: not retried, nothing waited beyond the timeout`);
  });

  it('PETSTORE_TIMEOUT sets the read timeout; --timeout wins over it', async () => {
    const fromEnv = await pets(['get', '1'], { PETSTORE_BASE_URL: silent.url, PETSTORE_TIMEOUT: '0.3' });
    assertOneLine(fromEnv, 4, /no answer for 0\.3 s/);
    const started = performance.now();
    const fromFlag = await pets(['create', '--name', 'Rex', '--category-id', '1', '--timeout', '0.2'], {
      PETSTORE_BASE_URL: silent.url,
      PETSTORE_TIMEOUT: '600',
    });
    assertOneLine(fromFlag, 4, /no answer for 0\.2 s/);
    assert.ok(performance.now() - started < 2_500);
  });

  it('an answer whose body stops coming → the read timeout ends it too', async () => {
    const result = await pets(['list', '--timeout', '0.3'], { PETSTORE_BASE_URL: stalled.url });
    assertOneLine(result, 4, /no answer for 0\.3 s \(the read timeout\)/);
  });

  it('server down, or a host that does not exist → one line naming the address, exit 4', async () => {
    const closed = await listen();
    const url = closed.url;
    await new Promise((resolve) => closed.close(resolve));
    assertOneLine(
      await pets(['list'], { PETSTORE_BASE_URL: url }),
      4,
      /cannot reach the API at .*ECONNREFUSED.*is PETSTORE_BASE_URL right/,
    );
    assertOneLine(
      await pets(['list', '--connect-timeout', '2'], { PETSTORE_BASE_URL: 'http://no-such-host.invalid' }),
      4,
      /cannot reach the API at http:\/\/no-such-host\.invalid\/v1: .*ENOTFOUND/,
    );
  });

  it('a timeout that is not a number of seconds from 0.1 to 3600 → exit 2 naming the flag or variable', async () => {
    for (const [args, env, name] of [
      [['--timeout', '0'], {}, '--timeout'],
      [['--connect-timeout', 'soon'], {}, '--connect-timeout'],
      [[], { PETSTORE_TIMEOUT: '-1' }, 'PETSTORE_TIMEOUT'],
      [[], { PETSTORE_CONNECT_TIMEOUT: '3601' }, 'PETSTORE_CONNECT_TIMEOUT'],
    ] as const) {
      const result = await pets(['list', ...args], { PETSTORE_BASE_URL: silent.url, ...env });
      assertOneLine(
        result,
        2,
        new RegExp(`^petstore: ${name} must be a number of seconds from 0\\.1 to 3600`),
      );
    }
  });

  it('an unreachable database → one line, exit 4', async () => {
    const result = await cli(['keys', 'list', '--database', 'postgres://127.0.0.1:1/petstore'], { cwd: dir });
    assertOneLine(result, 4, /ECONNREFUSED/);
  });
});

describe('petstore speaks one way: usage names the flag, every --help ends with the exit table', () => {
  const run = (args: string[]) => cli(args, { cwd: tmpdir() });

  it('keys create without --project or --plan → exit 2 naming --project', async () => {
    assertOneLine(await run(['keys', 'create']), 2, /keys create needs --project <slug>/);
  });

  it('--help of petstore and of every command group → exit 0 and the same exit table', async () => {
    const table =
      /Exit status \(the same in both modes\):\n {2}0 {2}done\n {2}1 {2}failed.*\n {2}2 {2}usage.*\n {2}3 {2}not found.*\n {2}4 {2}unreachable.*\n {2}5 {2}not allowed.*\n {2}6 {2}conflict/;
    for (const group of [
      [],
      ['serve'],
      ['migrate'],
      ['keys'],
      ['projects'],
      ['admin'],
      ['domains'],
      ['members'],
      ['invitations'],
      ['logs'],
      ['audit'],
      ['usage'],
      ['login'],
      ['logout'],
      ['pets'],
    ]) {
      const result = await run([...group, '--help']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, table, group.join(' '));
    }
  });

  it('pets --help and petstore --help state the timeouts, their defaults, flags and variables', async () => {
    const help = (await run(['pets', '--help'])).stdout;
    assert.match(
      help,
      /--connect-timeout S +seconds to open the connection \(PETSTORE_CONNECT_TIMEOUT, default 5\)/,
    );
    assert.match(help, /--timeout S[\s\S]*\(PETSTORE_TIMEOUT, default 30\)/);
    assert.match((await run(['--help'])).stdout, /5 s without a connection or 30 s without an answer/);
  });
});
