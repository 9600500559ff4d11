import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder } from '../../server/test/manage-support.ts';

const run = promisify(execFile);
const PACKAGE = join(import.meta.dirname, '..');
const TSC = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
/** Debian's Node.js, when it is older than the pinned one: the client must run there too. */
const SYSTEM_NODE = '/usr/bin/node';

/** What a user writes after `npm install petstore-client-1.0.0.tgz`: plain JavaScript, ES modules. */
const USER_SCRIPT = `
import { createManageClient, createPetstoreClient, PetstoreError } from '@petstore/client';
const petstore = createPetstoreClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const { pet } = await petstore.createPet({ name: 'Tarball', categoryId: 9223372036854775807n, status: 'sold' });
const seen = [];
for await (const p of petstore.pets({ status: 'sold', pageSize: 1 })) seen.push(String(p.id));
const { pet: again } = await petstore.getPet(pet.id);
let missing;
try { await petstore.getPet(987654321n); } catch (error) { missing = error instanceof PetstoreError && error.code; }
const manage = createManageClient({ baseUrl: process.env.MANAGE_URL, token: process.env.TOKEN });
const { data: project } = await manage.get('/projects/{slug}', { path: { slug: 'acme' } });
const keys = [];
for await (const key of manage.items('/projects/{slug}/keys', { path: { slug: 'acme' }, query: { limit: 1 } })) keys.push(key.id);
const perMinute = typeof project.limits.perMinute;
console.log(JSON.stringify({ categoryId: String(again.categoryId), seen, missing, node: process.version, perMinute, keys: keys.length }));
`;

/** The same in TypeScript, type-checked against the package's .d.ts files. */
const USER_TYPESCRIPT = `
import { createManageClient, createPetstoreClient, type Pet, PetstoreError } from '@petstore/client';
const petstore = createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey: 'ps_test_x' });
export async function names(): Promise<string[]> {
  const { pets } = await petstore.listPets({ status: 'available', limit: 10 });
  const first: Pet | undefined = pets[0];
  const id: bigint | undefined = first?.id;
  return id === undefined ? [] : pets.map((pet) => pet.name);
}
export const isGone = (error: unknown) => error instanceof PetstoreError && error.code === 'gone';
const manage = createManageClient({ baseUrl: 'https://petstore.example/manage/v1', token: 'ps_at_x' });
export async function keyLabels(slug: string): Promise<(string | null)[]> {
  const { data } = await manage.get('/projects/{slug}/keys', { path: { slug }, query: { limit: 5 } });
  const perDay: bigint = (await manage.get('/projects/{slug}', { path: { slug } })).data.limits.perDay;
  return perDay > 0n ? data.data.map((key) => key.label) : [];
}
`;

describe('@petstore/client as a user installs it: npm pack, then npm install of the tarball', () => {
  let dir: string;
  let project: string;
  let app: TestApp;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-client-pack-'));
    await run('npm', ['pack', '--pack-destination', dir], { cwd: PACKAGE });
    const [tarball] = (await readdir(dir)).filter((name) => name.endsWith('.tgz'));
    project = join(dir, 'project');
    await run('mkdir', [project]);
    await writeFile(join(project, 'package.json'), '{"name":"user-project","private":true,"type":"module"}');
    // --offline: the client has no dependencies, so nothing may come from a registry.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, tarball!)], {
      cwd: project,
    });
    await writeFile(join(project, 'use.js'), USER_SCRIPT);
    await writeFile(join(project, 'use.ts'), USER_TYPESCRIPT);

    app = await makeTestApp();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    const { token } = await tokenHolder(app, ['acme']);
    await app.request({ method: 'POST', url: '/manage/v1/projects/acme/keys', key: token, body: {} });
    await app.request({ method: 'POST', url: '/manage/v1/projects/acme/keys', key: token, body: {} });
    env = {
      PATH: process.env.PATH,
      BASE_URL: `http://127.0.0.1:${port}/v1`,
      API_KEY: app.key,
      MANAGE_URL: `http://127.0.0.1:${port}/manage/v1`,
      TOKEN: token,
    };
  });

  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the tarball holds the build and no source or tests, and the installed package has no dependencies', async () => {
    const installed = join(project, 'node_modules', '@petstore', 'client');
    assert.ok(existsSync(join(installed, 'dist', 'index.js')));
    assert.ok(existsSync(join(installed, 'dist', 'index.d.ts')));
    assert.ok(existsSync(join(installed, 'dist', 'vendor', 'petstore-json.js')));
    assert.ok(existsSync(join(installed, 'README.md')));
    assert.equal(existsSync(join(installed, 'src')), false);
    const packages = (await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'));
    assert.deepEqual(packages, ['@petstore']);
  });

  it('works on the pinned Node.js: create, page with Link, get, errors; int64 digit for digit; the management API', async () => {
    const { stdout } = await run(process.execPath, ['use.js'], { cwd: project, env });
    const result = JSON.parse(stdout) as {
      categoryId: string;
      seen: string[];
      missing: string;
      perMinute: string;
      keys: number;
    };
    assert.equal(result.categoryId, '9223372036854775807');
    assert.equal(result.seen.length, 1);
    assert.equal(result.missing, 'not_found');
    assert.equal(result.perMinute, 'bigint');
    assert.equal(result.keys, 2);
  });

  it('Node.js 20, whose JSON.parse gives no source text, is refused by name: never an inexact id', async (t) => {
    if (!existsSync(SYSTEM_NODE)) return t.skip(`${SYSTEM_NODE} is not installed`);
    const { stdout: version } = await run(SYSTEM_NODE, ['--version']);
    if (!version.startsWith('v20.')) return t.skip(`${SYSTEM_NODE} is ${version.trim()}, not Node.js 20`);
    await assert.rejects(run(SYSTEM_NODE, ['use.js'], { cwd: project, env }), (error: { stderr: string }) =>
      /@petstore\/client needs Node\.js 22 or later.* lacks JSON\.parse source text/.test(error.stderr),
    );
  });

  it('a runtime without fetch is refused, naming the version it needs', async () => {
    const script =
      "delete globalThis.fetch; const { createPetstoreClient } = await import('@petstore/client'); createPetstoreClient({ baseUrl: 'https://x.example/v1', apiKey: 'k' });";
    await assert.rejects(
      run(process.execPath, ['--input-type=module', '-e', script], { cwd: project }),
      (error: { stderr: string }) =>
        /@petstore\/client needs Node\.js 22 or later.* lacks fetch/.test(error.stderr),
    );
  });

  it('its types check in a TypeScript project (nodenext resolution)', async () => {
    const config = {
      compilerOptions: { module: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: ['use.ts'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(config));
    await run(process.execPath, [TSC, '-p', project], { cwd: project });
  });
});
