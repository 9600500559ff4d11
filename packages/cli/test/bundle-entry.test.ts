import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { freshBundleEntry } from '../bin/bundle-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-bundle-entry-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const dirUrl = pathToFileURL(`${dir}/`);
const builtAt = Date.now() - 60_000;

/** A bundle directory built at `builtAt` from `inputs` (files created an hour before it). */
function bundleOf(inputs: string[], manifest: unknown = { builtAt, entry: 'main.js', inputs }): void {
  for (const input of inputs) {
    writeFileSync(join(dir, input), '');
    const hourBefore = (builtAt - 3_600_000) / 1000;
    utimesSync(join(dir, input), hourBefore, hourBefore);
  }
  writeFileSync(join(dir, 'bundle.json'), JSON.stringify(manifest));
}

test('a bundle as new as every input is run', () => {
  bundleOf(['a.ts', 'b.ts']);
  assert.equal(freshBundleEntry(dirUrl), new URL('main.js', dirUrl).href);
});

test('an input changed after the build makes the sources run', () => {
  bundleOf(['a.ts', 'b.ts']);
  utimesSync(join(dir, 'b.ts'), new Date(), new Date());
  assert.equal(freshBundleEntry(dirUrl), undefined);
});

test('an input that is gone makes the sources run', () => {
  bundleOf(['a.ts']);
  writeFileSync(
    join(dir, 'bundle.json'),
    JSON.stringify({ builtAt, entry: 'main.js', inputs: ['a.ts', 'missing.ts'] }),
  );
  assert.equal(freshBundleEntry(dirUrl), undefined);
});

test('no bundle, or a manifest that cannot be read, makes the sources run', () => {
  assert.equal(freshBundleEntry(pathToFileURL(join(dir, 'nowhere/'))), undefined);
  writeFileSync(join(dir, 'bundle.json'), '{"builtAt":');
  assert.equal(freshBundleEntry(dirUrl), undefined);
  bundleOf(['a.ts'], { entry: 'main.js', inputs: ['a.ts'] });
  assert.equal(freshBundleEntry(dirUrl), undefined);
});
