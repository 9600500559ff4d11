import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { buildClientAssets } from '../../../../scripts/build-client.ts';
import { readClientAssets } from './client-assets.ts';
import { CLIENT_ASSETS_MANIFEST, CLIENT_ENTRY, clientPackageName } from './client-manifest.ts';

const TARBALL = clientPackageName().file;

describe('the typed client the docs page serves: built by scripts/build-client.ts, only read by the server', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'petstore-client-assets-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a build gives the browser module and the npm package, which the server serves as built', async () => {
    const dir = tempDir();
    const manifest = await buildClientAssets(dir);
    assert.deepEqual(manifest.files, [CLIENT_ENTRY, TARBALL]);
    assert.ok(
      manifest.inputs.some((input) => input.endsWith('/client/src/index.ts')),
      'built from the source',
    );
    const read = readClientAssets(dir);
    assert.ok('assets' in read, JSON.stringify(read));
    const module = read.assets.get(CLIENT_ENTRY)!;
    assert.equal(module.contentType, 'text/javascript; charset=utf-8');
    assert.match(module.body.toString('utf8'), /createPetstoreClient/);
    assert.match(module.body.toString('utf8'), /from "\.\/lossless-json\.js"/);
    const tar = gunzipSync(read.assets.get(TARBALL)!.body).toString('latin1');
    for (const file of ['package/package.json', 'package/dist/index.js', 'package/dist/index.d.ts']) {
      assert.ok(tar.includes(file), file);
    }
  });

  it('unavailable, naming `npm run build`, when nothing was built', () => {
    const read = readClientAssets(tempDir());
    assert.ok('unavailable' in read);
    assert.match(
      read.unavailable,
      new RegExp(`${CLIENT_ASSETS_MANIFEST} is missing\\): run \`npm run build\``),
    );
  });

  it('unavailable when a file it was built from changed after the build, naming that file', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'source.ts'), 'export {};\n');
    const builtAt = Date.now() - 60_000;
    for (const name of [CLIENT_ENTRY, TARBALL]) writeFileSync(path.join(dir, name), 'built');
    const manifest = { builtAt, files: [CLIENT_ENTRY, TARBALL], inputs: ['source.ts'] };
    writeFileSync(path.join(dir, CLIENT_ASSETS_MANIFEST), JSON.stringify(manifest));
    const stale = readClientAssets(dir);
    assert.ok('unavailable' in stale);
    assert.match(stale.unavailable, /build is older than .*source\.ts: run `npm run build`/);

    const before = new Date(builtAt - 60_000);
    utimesSync(path.join(dir, 'source.ts'), before, before);
    const fresh = readClientAssets(dir);
    assert.ok('assets' in fresh, JSON.stringify(fresh));
    assert.equal(fresh.assets.get(CLIENT_ENTRY)!.body.toString(), 'built');

    rmSync(path.join(dir, 'source.ts'));
    assert.ok('unavailable' in readClientAssets(dir), 'an input gone is a change too');
  });

  it('unavailable when the build lacks one of the files', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, CLIENT_ENTRY), 'built');
    const manifest = { builtAt: Date.now(), files: [CLIENT_ENTRY], inputs: [] };
    writeFileSync(path.join(dir, CLIENT_ASSETS_MANIFEST), JSON.stringify(manifest));
    const read = readClientAssets(dir);
    assert.ok('unavailable' in read);
    assert.match(read.unavailable, new RegExp(`has no ${TARBALL.replaceAll('.', '\\.')}`));
  });
});
