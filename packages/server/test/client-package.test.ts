import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { makeTestApp, type TestApp } from './harness.ts';

const run = promisify(execFile);
const TSC = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
const FILE = 'petstore-client-1.0.0.tgz';

/** What a reader of a docs site writes after the page's `npm install <origin>/docs/assets/…tgz`. */
const USE = `
import { createPetstoreClient, PetstoreError } from '@petstore/client';
const petstore = createPetstoreClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const { pet } = await petstore.createPet({ name: 'Served', categoryId: 9223372036854775807n });
const { pets } = await petstore.listPets({ limit: 5 });
let refused;
try { await createPetstoreClient({ baseUrl: process.env.BASE_URL, apiKey: 'ps_test_nope' }).listPets(); }
catch (error) { refused = error instanceof PetstoreError && error.code; }
console.log(JSON.stringify({ categoryId: String(pet.categoryId), listed: pets.length, refused }));
`;

const USE_TYPESCRIPT = `
import { createPetstoreClient, type Pet } from '@petstore/client';
const petstore = createPetstoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'ps_test_x' });
export async function first(): Promise<bigint | undefined> {
  const { pets } = await petstore.listPets({ status: 'available' });
  const pet: Pet | undefined = pets[0];
  return pet?.id;
}
`;

describe(`GET /docs/assets/${FILE}: the typed client as the docs sites tell readers to install it`, () => {
  let app: TestApp;
  let dir: string;
  let base: string;

  before(async () => {
    app = await makeTestApp();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'petstore-served-client-'));
  });

  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('200 application/gzip with a strong ETag, the same bytes on every download, 304 when unchanged', async () => {
    const first = await fetch(`${base}/docs/assets/${FILE}`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'application/gzip');
    const bytes = Buffer.from(await first.arrayBuffer());
    assert.equal(bytes[0], 0x1f, 'gzip');
    const again = await fetch(`${base}/docs/assets/${FILE}`);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), bytes);
    const etag = first.headers.get('etag')!;
    assert.equal(
      (await fetch(`${base}/docs/assets/${FILE}`, { headers: { 'if-none-match': etag } })).status,
      304,
    );
    const site = await app.request({
      url: `/docs/assets/${FILE}`,
      key: null,
      headers: { host: 'acme.sites.localhost' },
      unchecked: true,
    });
    assert.equal(site.status, 404, 'no project acme: its site serves nothing');
  });

  it('npm install <url> works as the page says; the package runs against the API and type-checks', async () => {
    const project = join(dir, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), '{"name":"reader","private":true,"type":"module"}');
    await run('npm', ['install', '--no-audit', '--no-fund', `${base}/docs/assets/${FILE}`], { cwd: project });
    const manifest = JSON.parse(
      await readFile(join(project, 'node_modules', '@petstore', 'client', 'package.json'), 'utf8'),
    ) as { name: string; dependencies?: unknown; exports: Record<string, unknown> };
    assert.equal(manifest.name, '@petstore/client');
    assert.equal(manifest.dependencies, undefined, 'nothing else to install');
    assert.deepEqual(Object.keys(manifest.exports), ['.', './package.json']);

    await writeFile(join(project, 'use.js'), USE);
    const { stdout } = await run(process.execPath, ['use.js'], {
      cwd: project,
      env: { PATH: process.env.PATH, BASE_URL: `${base}/v1`, API_KEY: app.key },
    });
    assert.deepEqual(JSON.parse(stdout), {
      categoryId: '9223372036854775807',
      listed: 1,
      refused: 'unauthorized',
    });

    await writeFile(join(project, 'use.ts'), USE_TYPESCRIPT);
    await run(
      process.execPath,
      [TSC, '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', 'use.ts'],
      { cwd: project },
    );
  });
});
