import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { dependencyModules, resolveToBundle } from '../bin/dependency-modules.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-dependency-modules-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const dirUrl = pathToFileURL(`${dir}/`);
const builtAt = Date.now() - 60_000;

/** A bundle built at `builtAt`, npm's record of node_modules written `lockfileAgeMs` before it. */
function bundleOf(
  lockfileAgeMs: number,
  manifest: unknown = { builtAt, lockfile: 'lock.json', modules: { fastify: 'fastify.js' } },
): void {
  writeFileSync(join(dir, 'lock.json'), '{}');
  const at = (builtAt - lockfileAgeMs) / 1000;
  utimesSync(join(dir, 'lock.json'), at, at);
  writeFileSync(join(dir, 'dependencies.json'), JSON.stringify(manifest));
}

test('a bundle newer than npm’s record of node_modules → its modules by specifier', () => {
  bundleOf(3_600_000);
  assert.deepEqual(dependencyModules(dirUrl), new Map([['fastify', new URL('fastify.js', dirUrl).href]]));
});

test('node_modules changed after the build (npm install) → undefined: the packages come from node_modules', () => {
  bundleOf(-1_000);
  assert.equal(dependencyModules(dirUrl), undefined);
});

test('no manifest, an unreadable one or no record of node_modules → undefined', () => {
  rmSync(join(dir, 'dependencies.json'), { force: true });
  assert.equal(dependencyModules(dirUrl), undefined);
  writeFileSync(join(dir, 'dependencies.json'), '{ not json');
  assert.equal(dependencyModules(dirUrl), undefined);
  bundleOf(3_600_000, { builtAt, lockfile: 'missing.json', modules: {} });
  assert.equal(dependencyModules(dirUrl), undefined);
});

test('the resolve hook → the bundle for our modules’ imports of a bundled package, node_modules for the rest', () => {
  const modules = new Map([['fastify', 'file:///app/packages/cli/dist/fastify.js']]);
  const hook = resolveToBundle(modules);
  const next = (specifier: string) => ({ url: `file:///app/node_modules/${specifier}/index.js` });
  const resolve = (specifier: string, parentURL: string) =>
    hook(specifier, { parentURL, conditions: [], importAttributes: {} }, next as never).url;
  assert.equal(
    resolve('fastify', 'file:///app/packages/server/src/app.ts'),
    'file:///app/packages/cli/dist/fastify.js',
  );
  assert.equal(
    resolve('pino', 'file:///app/packages/server/src/server.ts'),
    'file:///app/node_modules/pino/index.js',
  );
  assert.equal(
    resolve('fastify', 'file:///app/node_modules/fastify-plugin/plugin.js'),
    'file:///app/node_modules/fastify/index.js',
  );
});
