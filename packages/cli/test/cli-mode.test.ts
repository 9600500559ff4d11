import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { saveToken } from '../src/credentials.ts';
import type { CliIo } from '../src/io.ts';
import { cli, type CliResult, runCli } from './run-cli.ts';

const PROJECT_COMMANDS = [
  ['projects', 'list'],
  ['projects', 'get', 'acme'],
  ['keys', 'list', '--project', 'acme'],
  ['keys', 'create', '--project', 'acme'],
  ['keys', 'revoke', 'key_x', '--project', 'acme'],
  ['domains', 'list', '--project', 'acme'],
  ['members', 'list', '--project', 'acme'],
  ['invitations', 'list', '--project', 'acme'],
  ['logs', '--project', 'acme'],
  ['audit', '--project', 'acme'],
  ['usage', '--project', 'acme'],
];

const OPERATOR_COMMANDS = [
  ['admin', 'invite', '--email', 'x@example.com', '--project', 'acme'],
  ['admin', 'create', '--email', 'x@example.com'],
  ['projects', 'create', '--name', 'X', '--slug', 'x', '--plan', 'free'],
  ['projects', 'set-plan', 'acme', '--plan', 'pro'],
  ['keys', 'create', '--plan', 'free'],
  ['keys', 'unban', 'key_x'],
  ['keys', 'set-limits', 'key_x'],
  ['keys', 'revoke', 'key_x'],
];

const NO_TOKEN =
  /^petstore: no access token for the management API at http:\/\/[^ ]+\/manage\/v1 \(.*\): run "petstore login" with a token made in the dashboard under Account → Access tokens, or set PETSTORE_ACCESS_TOKEN; or, on the server, pass --database URL/;

/** Exactly one line on standard error, nothing on standard output. */
function assertRefused(result: CliResult, code: number, pattern: RegExp, what: string): void {
  assert.equal(result.code, code, `${what}: ${result.stderr}`);
  assert.equal(result.stdout, '', what);
  assert.equal(result.stderr.trimEnd().split('\n').length, 1, `${what}: ${result.stderr}`);
  assert.match(result.stderr, pattern, what);
}

/**
 * The mode of every command, tried as a new user and as the operator would: a base URL or a token is
 * the management API, never a database nobody named; the operator's own commands run on the database
 * alone, and are refused before anything is sent where a token is in use.
 */
describe('petstore picks one mode and says it: the API when a base URL or token is given, the database when named', () => {
  let dir: string;
  /** A server's directory: its default database ./data/petstore.db is there, as in the repository. */
  let serverDir: string;
  let empty: string;
  let config: string;
  let api: Server;
  let origin: string;
  const requests: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-mode-'));
    serverDir = join(dir, 'server');
    empty = join(dir, 'empty');
    config = join(dir, 'config');
    await mkdir(join(serverDir, 'data'), { recursive: true });
    await mkdir(empty);
    const migrated = await cli(['migrate'], { cwd: serverDir });
    assert.equal(migrated.code, 0, migrated.stderr);
    // Records every request; answers the one `petstore login` and `projects list` make.
    api = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      const projects = request.method === 'GET' && request.url === '/manage/v1/projects';
      response.writeHead(projects ? 200 : 404, { 'content-type': 'application/json' });
      response.end(projects ? '{"data":[]}' : '{"code":"not_found","message":"no such thing","status":404}');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });

  after(async () => {
    api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a base URL and no token, run from an empty directory → exit 5 saying how to log in; nothing sent or created', async () => {
    const result = await runCli(['keys', 'list', '--project', 'acme'], {
      cwd: empty,
      env: { PETSTORE_BASE_URL: origin },
    });
    assertRefused(result, 5, NO_TOKEN, 'keys list');
    assert.match(result.stderr, /\(PETSTORE_BASE_URL\)/);
    assert.deepEqual(requests, []);
    assert.deepEqual(await readdir(empty), []);
  });

  it('a base URL and no token beside the server’s own database → every project command exits 5, the database never opened', async () => {
    for (const args of PROJECT_COMMANDS) {
      const result = await cli(args, { cwd: serverDir, env: { PETSTORE_BASE_URL: origin } });
      assertRefused(result, 5, NO_TOKEN, args.join(' '));
    }
    for (const args of PROJECT_COMMANDS.slice(0, 3)) {
      const result = await cli([...args, '--base-url', origin], { cwd: serverDir });
      assertRefused(result, 5, /\(--base-url\)/, `${args.join(' ')} --base-url`);
      const both = await cli(args, {
        cwd: serverDir,
        env: { PETSTORE_BASE_URL: origin, DATABASE_URL: 'data/petstore.db' },
      });
      assertRefused(both, 5, NO_TOKEN, `${args.join(' ')}: a base URL wins over DATABASE_URL`);
    }
    assert.deepEqual(requests, []);
  });

  it('nothing named → the API at the default address (exit 5); --database or DATABASE_URL → the database, the line says which named it', async () => {
    const unnamed = await cli(['projects', 'list'], { cwd: serverDir });
    assertRefused(
      unnamed,
      5,
      /management API at http:\/\/127\.0\.0\.1:8080\/manage\/v1 \(the default address: no --base-url, PETSTORE_BASE_URL, --database or DATABASE_URL was given\)/,
      'projects list',
    );
    const byVariable = await cli(['projects', 'list'], {
      cwd: serverDir,
      env: { DATABASE_URL: 'data/petstore.db' },
    });
    assert.equal(byVariable.code, 0, byVariable.stderr);
    assert.equal(
      byVariable.stderr,
      `petstore: operator mode on the database sqlite ${join(serverDir, 'data', 'petstore.db')} (DATABASE_URL)\n`,
    );
    const byFlag = await cli(['projects', 'list', '--database', 'data/petstore.db'], {
      cwd: serverDir,
      env: { PETSTORE_BASE_URL: origin, PETSTORE_ACCESS_TOKEN: 'ps_at_unused' },
    });
    assert.equal(byFlag.code, 0, byFlag.stderr);
    assert.match(byFlag.stderr, /^petstore: operator mode on the database sqlite .* \(--database\)\n$/);
    const operator = await cli(['keys', 'create', '--plan', 'free'], { cwd: serverDir });
    assert.equal(operator.code, 0, operator.stderr);
    assert.match(
      operator.stderr,
      /^petstore: operator mode on the database sqlite .*\/data\/petstore\.db \(the default \.\/data\/petstore\.db: no --database or DATABASE_URL was given\)\n$/,
    );
    assert.deepEqual(requests, []);
  });

  it('a token and an admin command, run as a process → exit 2 before anything is sent or opened', async () => {
    const result = await runCli(['admin', 'invite', '--email', 'x@example.com', '--project', 'acme'], {
      cwd: serverDir,
      env: { PETSTORE_BASE_URL: origin, PETSTORE_ACCESS_TOKEN: 'ps_at_unused' },
    });
    assertRefused(
      result,
      2,
      /^petstore: admin invite runs on the server's database alone \(the management API does not offer it\), and PETSTORE_ACCESS_TOKEN is set: nothing was sent; on the server, pass --database URL \(or set DATABASE_URL\) to run it as the operator\n$/,
      'admin invite',
    );
    for (const args of OPERATOR_COMMANDS) {
      for (const env of [
        { PETSTORE_ACCESS_TOKEN: 'ps_at_unused' },
        { DATABASE_URL: 'data/petstore.db', PETSTORE_ACCESS_TOKEN: 'ps_at_unused' },
      ]) {
        const refused = await cli(args, { cwd: serverDir, env });
        assertRefused(
          refused,
          2,
          /runs on the server's database alone/,
          `${args.join(' ')} ${Object.keys(env).join(' ')}`,
        );
      }
    }
    assert.deepEqual(requests, []);
  });

  it('a base URL and an operator command → refused as with a token; a login saved under any loopback name too; DATABASE_URL or --database runs it', async () => {
    for (const args of OPERATOR_COMMANDS) {
      const refused = await cli(args, { cwd: serverDir, env: { PETSTORE_BASE_URL: origin } });
      assertRefused(
        refused,
        2,
        /runs on the server's database alone \(the management API does not offer it\), and PETSTORE_BASE_URL names the management API: nothing was sent/,
        args.join(' '),
      );
    }
    // A login for the default address, saved under another spelling of it than the one looked up.
    const env = { XDG_CONFIG_HOME: config };
    const io = { env, stderr: { write: () => true } } as unknown as CliIo;
    await saveToken(io, 'http://[::1]:8080/v1/', 'ps_at_saved', new Date());
    const refused = await cli(['admin', 'remove', '--email', 'x@example.com'], { cwd: serverDir, env });
    assertRefused(
      refused,
      2,
      /and "petstore login" saved a token for http:\/\/127\.0\.0\.1:8080\/manage\/v1: nothing was sent/,
      'admin remove',
    );
    const named = await cli(['admin', 'remove', '--email', 'x@example.com'], {
      cwd: serverDir,
      env: { ...env, DATABASE_URL: 'data/petstore.db' },
    });
    assert.equal(named.code, 3, named.stderr);
    assert.match(
      named.stderr,
      /^petstore: operator mode on the database .* \(DATABASE_URL\)\npetstore: no account for x@example\.com\n$/,
    );
    const flagged = await cli(['keys', 'create', '--plan', 'free', '--database', 'data/petstore.db'], {
      cwd: serverDir,
      env: { ...env, PETSTORE_BASE_URL: origin },
    });
    assert.equal(flagged.code, 0, flagged.stderr);
    assert.deepEqual(requests, []);
  });

  it('a login saved for the address → a project’s command calls the API with it, whichever loopback name', async () => {
    const env = { XDG_CONFIG_HOME: config, PETSTORE_BASE_URL: origin };
    const login = await cli(['login', '--token', 'ps_at_login'], { cwd: empty, env });
    assert.equal(login.code, 0, login.stderr);
    for (const base of [origin, origin.replace('127.0.0.1', 'localhost')]) {
      const viaApi = await cli(['projects', 'list'], {
        cwd: empty,
        env: { ...env, PETSTORE_BASE_URL: base },
      });
      assert.equal(viaApi.code, 0, viaApi.stderr);
      assert.equal(
        viaApi.stderr,
        `petstore: management API at ${base}/manage/v1 as token ps_at_logi… (saved by petstore login)\n`,
      );
    }
    assert.deepEqual(requests.splice(0), Array(3).fill('GET /manage/v1/projects'));
  });
});
