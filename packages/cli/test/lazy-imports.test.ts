import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { spawnServe } from '../../server/test/serve-process.ts';
import { MAIN } from './run-cli.ts';

const run = promisify(execFile);

/**
 * Prints every module a process loads on standard error, one per line: from the load hook, which sees
 * where each import ended, the dependency bundle's resolve hook (bin/petstore.js) included.
 */
const RECORD_IMPORTS = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module';" +
    "registerHooks({ load(url, context, next) { process.stderr.write('import ' + url + '\\n');" +
    ' return next(url, context); } });',
)}`;

/** A recorded module line as the tests compare it: a path below the repository, or node:name. */
const shortened = (url: string) => url.replace(/^file:\/\/.*?\/(packages|node_modules)\//, '$1/');

/**
 * The modules `petstore <args>` loads, as paths below the repository (or node_modules/<package>), and
 * the node: built-ins by name; a command that fails still reports what it loaded. A package of the
 * dependency bundle shows as `packages/cli/dist/<package>.js` (its chunks as `chunk-…`).
 */
async function modulesOf(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const stderr = await run(process.execPath, ['--import', RECORD_IMPORTS, MAIN, ...args], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  }).then(
    (done) => done.stderr,
    (failed: { stderr?: string }) => failed.stderr ?? '',
  );
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('import '))
    .map((line) => shortened(line.replace(/^import /, '')));
}

test('petstore --version loads the command table and nothing else (no command, no server)', async () => {
  const modules = await modulesOf(['--version']);
  assert.deepEqual(
    modules.filter((path) => !path.startsWith('packages/cli/') && !path.startsWith('node:')),
    [],
  );
  assert.ok(
    !modules.some((path) => /packages\/cli\/src\/(keys|pets|serve|domains)\.ts/.test(path)),
    modules.join('\n'),
  );
});

test('petstore keys --help loads no HTTP server, contract, docs or dashboard', async () => {
  const modules = await modulesOf(['keys', '--help']);
  for (const heavy of [
    /node_modules\/fastify\/|dist\/fastify\.js$/,
    /node_modules\/yaml\//,
    /\/openapi\//,
    /\/docs\//,
    /\/dashboard\//,
    /\/app\.ts$/,
  ]) {
    assert.deepEqual(
      modules.filter((path) => heavy.test(path)),
      [],
      String(heavy),
    );
  }
});

test('petstore pets --help loads nothing of the server package', async () => {
  const modules = await modulesOf(['pets', '--help']);
  assert.deepEqual(
    modules.filter((path) => path.startsWith('packages/server/')),
    [],
  );
});

test('petstore keys list with an access token loads no database: no node:sqlite, no pg, no storage', async () => {
  const modules = await modulesOf(['keys', 'list', '--project', 'acme'], {
    PETSTORE_ACCESS_TOKEN: 'ps_at_unused',
    PETSTORE_BASE_URL: 'http://127.0.0.1:9',
  });
  assert.ok(
    modules.some((path) => path.includes('api-client')),
    modules.join('\n'),
  );
  for (const database of [
    /^node:sqlite$/,
    /node_modules\/pg\/|dist\/pg\.js$/,
    /storage\/(sqlite|postgres)\.ts$/,
  ]) {
    assert.deepEqual(
      modules.filter((path) => database.test(path)),
      [],
      String(database),
    );
  }
});

test('petstore keys list on a database loads neither node:crypto, password hashing (worker_threads), mail nor the HTTP client', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-lazy-'));
  try {
    const env = { DATABASE_URL: join(dir, 'petstore.db') };
    await run(process.execPath, [MAIN, 'migrate'], { env: { PATH: process.env.PATH, ...env } });
    const modules = await modulesOf(['keys', 'list', '--limit', '20'], env);
    assert.ok(modules.includes('node:sqlite'), modules.join('\n'));
    for (const unused of [
      /^node:crypto$/,
      /^node:worker_threads$/,
      /\/features\/identity\/(passwords|hashing-gate|strength-pool|strength-worker|password-strength)\.ts$/,
      // The outbox's records (the table's SQL) may load with the invitations; sending mail may not.
      /\/mail\/(messages|outbox|mailer|smtp-mailer)\.ts$/,
      /^packages\/client\//,
    ]) {
      assert.deepEqual(
        modules.filter((path) => unused.test(path)),
        [],
        String(unused),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('petstore serve → its first answers load neither the dashboard, the management API, the custom-domain service nor the public suffix list; the first dashboard request loads the dashboard', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-lazy-serve-'));
  const server = spawnServe(
    { PATH: process.env.PATH, DATABASE_URL: join(dir, 'petstore.db') },
    ['--port', '0'],
    {},
    ['--import', RECORD_IMPORTS, MAIN],
  );
  const loaded = () =>
    server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('import '))
      .map((line) => shortened(line.replace(/^import /, '')));
  try {
    const url = await server.listening();
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal((await fetch(`${url}/v1/pets`)).status, 401);
    const served = loaded();
    assert.ok(served.includes('packages/server/src/app.ts'), served.join('\n'));
    for (const unused of [
      /\/dashboard\/(router|routes)\.ts$/,
      /\/features\/identity\/session-cookie\.ts$/,
      /\/manage\/area\.ts$/,
      /\/features\/(keys|projects|members|audit|requests|domains)\/service\.ts$/,
      /node_modules\/tldts\/|dist\/tldts\.js$/,
      /node_modules\/yaml\//,
      /\/features\/identity\/(passwords|sessions)\.ts$/,
    ]) {
      assert.deepEqual(
        served.filter((path) => unused.test(path)),
        [],
        String(unused),
      );
    }
    assert.equal((await fetch(`${url}/dashboard/sign-in`)).status, 200);
    assert.ok(loaded().includes('packages/server/src/dashboard/router.ts'), loaded().join('\n'));
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
