import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildBundle } from '../../../scripts/build.ts';
import { ROOT, type ServeProcess, spawnServe } from '../../server/test/serve-process.ts';

const run = promisify(execFile);

/** Records every module the process loads, so a test can tell the bundle from the sources. */
const RECORD_LOADS = `import module from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = [];
module.registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.LOADED_FILE, loaded.join('\\n')));
`;

/**
 * The program as `npm ci` leaves it: bundled by scripts/build.ts and run by bin/petstore.js. Built
 * into a directory of its own inside node_modules (where the bundle's packages resolve), never over
 * the checkout's own bundle, which other suites may be running.
 */
describe('the bundled program', () => {
  let dir: string;
  let bin: string;
  let env: NodeJS.ProcessEnv;
  let server: ServeProcess | undefined;
  const loadedFile = () => join(dir, 'loaded.txt');
  const ourSources = () =>
    readFileSync(loadedFile(), 'utf8')
      .split('\n')
      .filter((url) => url.includes('/packages/') && url.endsWith('.ts'));
  const cli = (args: string[], input?: string) => {
    const child = run(process.execPath, ['--import', join(dir, 'record-loads.mjs'), bin, ...args], {
      cwd: dir,
      env,
    });
    if (input !== undefined) child.child.stdin!.end(input);
    return child;
  };

  before(async () => {
    const cache = join(ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    dir = mkdtempSync(join(cache, 'petstore-bundle-test-'));
    await buildBundle(join(dir, 'dist'));
    mkdirSync(join(dir, 'bin'));
    for (const file of ['petstore.js', 'bundle-entry.js']) {
      copyFileSync(join(ROOT, 'packages/cli/bin', file), join(dir, 'bin', file));
    }
    bin = join(dir, 'bin', 'petstore.js');
    writeFileSync(join(dir, 'record-loads.mjs'), RECORD_LOADS);
    env = { PATH: process.env.PATH, DATABASE_URL: join(dir, 'petstore.db'), LOADED_FILE: loadedFile() };
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--version runs from the bundle: no source file is loaded', async () => {
    const { stdout } = await cli(['--version']);
    assert.match(stdout, /^petstore \d+\.\d+\.\d+/);
    assert.ok(readFileSync(loadedFile(), 'utf8').includes(`${dir}/dist/main.js`));
    assert.deepEqual(ourSources(), []);
  });

  it('migrate, projects create, keys create and admin create (the password check) run from it', async () => {
    await cli(['migrate']);
    await cli(['projects', 'create', '--name', 'Acme', '--slug', 'acme', '--plan', 'pro']);
    const { stdout } = await cli(['keys', 'create', '--project', 'acme']);
    env = { ...env, PETSTORE_API_KEY: stdout.trimEnd().split('\n').at(-1)! };
    assert.match(env.PETSTORE_API_KEY!, /^ps_test_/);
    const admin = await cli(['admin', 'create', '--email', 'ann@example.com'], 'a long passphrase 7\n');
    assert.match(admin.stdout, /created account ann@example\.com/);
    assert.deepEqual(ourSources(), []);
  });

  it('a later build leaves files a running server may import: unchanged ones untouched, a day-old earlier one removed', async () => {
    const dist = join(dir, 'dist');
    const main = statSync(join(dist, 'main.js')).mtimeMs;
    writeFileSync(join(dist, 'chunk-EARLIER.js'), '');
    writeFileSync(join(dist, 'chunk-ANCIENT.js'), '');
    const twoDaysAgo = (Date.now() - 2 * 86_400_000) / 1000;
    utimesSync(join(dist, 'chunk-ANCIENT.js'), twoDaysAgo, twoDaysAgo);
    await buildBundle(dist);
    assert.equal(statSync(join(dist, 'main.js')).mtimeMs, main, 'an unchanged file is not written again');
    assert.ok(existsSync(join(dist, 'chunk-EARLIER.js')), "an earlier build's file is kept for a day");
    assert.ok(
      !existsSync(join(dist, 'chunk-ANCIENT.js')),
      "an earlier build's file older than a day is removed",
    );
    const { stdout } = await cli(['--version']);
    assert.match(stdout, /^petstore /);
    assert.deepEqual(ourSources(), []);
  });

  it('serve answers the API, the contract, the docs and the dashboard, and exits 0 on SIGTERM', async () => {
    server = spawnServe(env, ['--port', '0'], {}, ['--import', join(dir, 'record-loads.mjs'), bin]);
    const url = await server.listening();
    const authorization = `Bearer ${env.PETSTORE_API_KEY}`;
    const created = await fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: number };
    const read = await fetch(`${url}/v1/pets/${id}`, { headers: { authorization } });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('x-ratelimit-limit') !== null, true);
    for (const [path, type] of [
      ['/v1/openapi.json', 'application/json'],
      ['/docs', 'text/html'],
      ['/docs/assets/app.js', 'javascript'],
      ['/dashboard/sign-in', 'text/html'],
      ['/dashboard/assets/dashboard.css', 'text/css'],
    ] as const) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', new RegExp(type), path);
    }
    await server.stop();
    assert.equal(await server.exited, 0);
    assert.deepEqual(ourSources(), []);
  });
});
