import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildDependencies, type DependencyManifest } from '../../../scripts/build-dependencies.ts';
import { ROOT, type ServeProcess, spawnServe } from '../../server/test/serve-process.ts';

const run = promisify(execFile);

/**
 * What bin/petstore.js does, with the bundle of a directory of the test's own: records every module the
 * process loads, then resolves the bundled packages to it and runs the command line's sources.
 */
const runner = (dist: string) => `import module from 'node:module';
import { writeFileSync } from 'node:fs';
import { dependencyModules, resolveToBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'packages/cli/bin/dependency-modules.js')).href)};
const loaded = [];
module.registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.LOADED_FILE, loaded.join('\\n')));
const modules = dependencyModules(${JSON.stringify(pathToFileURL(`${dist}/`).href)});
if (!modules) throw new Error('the bundle is not current');
module.registerHooks({ resolve: resolveToBundle(modules) });
const { main } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'packages/cli/src/main.ts')).href)});
const status = await main(process.argv.slice(2));
if (process.argv[2] !== 'serve') process.exitCode = status;
`;

/**
 * The program as `npm ci` leaves it: its packages from the dependency bundle (scripts/build.ts), its own
 * modules from their sources. Built into a directory of its own inside node_modules (where the packages
 * it leaves unbundled resolve), never over the checkout's own bundle, which other suites may be running.
 */
describe('the dependency bundle', () => {
  let dir: string;
  let manifest: DependencyManifest;
  let env: NodeJS.ProcessEnv;
  let server: ServeProcess | undefined;
  const dist = () => join(dir, 'dist');
  const loaded = () => readFileSync(join(dir, 'loaded.txt'), 'utf8').split('\n');
  /** Files of bundled packages the process loaded from node_modules: none, when the bundle is used. */
  const bundledFromNodeModules = () =>
    loaded().filter((url) =>
      Object.keys(manifest.modules).some((specifier) => url.includes(`/node_modules/${specifier}/`)),
    );
  const cli = (args: string[], input?: string) => {
    const child = run(process.execPath, [join(dir, 'run.mjs'), ...args], { cwd: dir, env });
    if (input !== undefined) child.child.stdin!.end(input);
    return child;
  };

  before(async () => {
    const cache = join(ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    dir = mkdtempSync(join(cache, 'petstore-dependencies-test-'));
    manifest = await buildDependencies(dist());
    writeFileSync(join(dir, 'run.mjs'), runner(dist()));
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: join(dir, 'petstore.db'),
      LOADED_FILE: join(dir, 'loaded.txt'),
    };
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('bundles the server’s packages, and leaves in node_modules those that locate their own files', () => {
    for (const specifier of ['fastify', 'find-my-way', 'fastify-plugin', 'pg', 'nodemailer', 'tldts']) {
      assert.ok(specifier in manifest.modules, specifier);
    }
    for (const name of ['pino', 'minisearch', '@zxcvbn-ts/core'])
      assert.ok(manifest.external.includes(name), name);
  });

  it('the modules a start imports are ASCII, which Node.js reads as one-byte strings (licences beside them)', () => {
    const startModules = ['fastify', 'find-my-way', 'fastify-plugin', '@fastify/proxy-addr', 'lru-cache'];
    const files = [
      ...startModules.map((specifier) => manifest.modules[specifier]!),
      ...readdirSync(dist()).filter((name) => /^chunk-.*\.js$/.test(name)),
    ];
    for (const file of files) {
      assert.ok(
        readFileSync(join(dist(), file)).every((byte) => byte < 0x80),
        file,
      );
    }
    assert.match(readFileSync(join(dist(), 'fastify.js.LEGAL.txt'), 'utf8'), /Jimmy Wärting/);
  });

  it('migrate, projects create, keys create and admin create (the password check) run with it', async () => {
    await cli(['migrate']);
    await cli(['projects', 'create', '--name', 'Acme', '--slug', 'acme', '--plan', 'pro']);
    const { stdout } = await cli(['keys', 'create', '--project', 'acme']);
    env = { ...env, PETSTORE_API_KEY: stdout.trimEnd().split('\n').at(-1)! };
    assert.match(env.PETSTORE_API_KEY!, /^ps_test_/);
    const admin = await cli(['admin', 'create', '--email', 'ann@example.com'], 'a long passphrase 7\n');
    assert.match(admin.stdout, /created account ann@example\.com/);
    assert.deepEqual(bundledFromNodeModules(), []);
  });

  it('a later build leaves files a running server may import: unchanged ones untouched, a day-old earlier one removed', async () => {
    const fastify = statSync(join(dist(), 'fastify.js')).mtimeMs;
    writeFileSync(join(dist(), 'chunk-EARLIER.js'), '');
    writeFileSync(join(dist(), 'chunk-ANCIENT.js'), '');
    const twoDaysAgo = (Date.now() - 2 * 86_400_000) / 1000;
    utimesSync(join(dist(), 'chunk-ANCIENT.js'), twoDaysAgo, twoDaysAgo);
    manifest = await buildDependencies(dist());
    assert.equal(
      statSync(join(dist(), 'fastify.js')).mtimeMs,
      fastify,
      'an unchanged file is not written again',
    );
    assert.ok(existsSync(join(dist(), 'chunk-EARLIER.js')), "an earlier build's file is kept for a day");
    assert.ok(
      !existsSync(join(dist(), 'chunk-ANCIENT.js')),
      "an earlier build's file older than a day is removed",
    );
  });

  it('serve answers the API, the contract, the docs, the dashboard and the management API, and exits 0 on SIGTERM', async () => {
    server = spawnServe(env, ['--port', '0'], {}, [join(dir, 'run.mjs')]);
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
      ['/docs/assets/minisearch.js', 'javascript'],
      ['/dashboard/sign-in', 'text/html'],
      ['/dashboard/assets/dashboard.css', 'text/css'],
      ['/manage/v1/openapi.json', 'application/json'],
    ] as const) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', new RegExp(type), path);
    }
    await server.stop();
    assert.equal(await server.exited, 0);
    assert.ok(loaded().includes(pathToFileURL(join(dist(), 'fastify.js')).href), 'Fastify from the bundle');
    assert.deepEqual(bundledFromNodeModules(), []);
  });
});
