import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { ResolveFnOutput } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { resolveSources } from '../bin/source-modules.js';

const ROOT = new URL('../../../', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'petstore-source-modules-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const at = (path: string) => pathToFileURL(join(dir, path)).href;

writeFileSync(join(dir, 'main.ts'), "export { value } from './value.ts';\n");
writeFileSync(join(dir, 'value.ts'), 'export const value: number = 1;\n');
mkdirSync(join(dir, 'folder.ts'));
symlinkSync(join(dir, 'value.ts'), join(dir, 'link.ts'));
writeFileSync(join(dir, 'broken.ts'), "export { value } from './gone.ts';\n");

const NODE = (specifier: string): ResolveFnOutput => ({ url: `node:${specifier}` });
const resolve = (specifier: string, parentURL: string | undefined) =>
  resolveSources(specifier, { parentURL, conditions: [], importAttributes: {} }, NODE as never);

test('a relative import of a .ts module of ours → joined to its importer, an ES module, no lookups', () => {
  assert.deepEqual(resolve('./value.ts', at('main.ts')), {
    url: at('value.ts'),
    format: 'module-typescript',
    shortCircuit: true,
  });
  assert.equal(resolve('../value.ts', at('folder.ts/inner.ts')).url, at('value.ts'));
});

test('a missing target, a directory or a symlink → resolved by Node.js, as without the hook', () => {
  for (const specifier of ['./gone.ts', './folder.ts', './link.ts']) {
    assert.deepEqual(resolve(specifier, at('main.ts')), { url: `node:${specifier}` }, specifier);
  }
});

test('a package, a .js file, an importer in node_modules or none → resolved by Node.js', () => {
  const cases: [string, string | undefined][] = [
    ['fastify', at('main.ts')],
    ['./value.js', at('main.ts')],
    ['./value.ts', pathToFileURL(join(dir, 'node_modules/x/main.ts')).href],
    ['./value.ts', undefined],
  ];
  for (const [specifier, parent] of cases) {
    assert.deepEqual(resolve(specifier, parent), { url: `node:${specifier}` }, `${specifier} from ${parent}`);
  }
});

test('every package of the repository is "type": "module", as the hook takes its .ts files to be', () => {
  const packages = ['.', ...readdirSync(new URL('packages/', ROOT)).map((name) => `packages/${name}`)];
  for (const name of packages) {
    const manifest = JSON.parse(readFileSync(new URL(`${name}/package.json`, ROOT), 'utf8')) as {
      type?: string;
    };
    assert.equal(manifest.type, 'module', `${name}/package.json`);
  }
});

test('a process with the hook: the module graph runs, a missing module fails as Node.js reports it', () => {
  const hook = pathToFileURL(new URL('../bin/source-modules.js', import.meta.url).pathname).href;
  const run = (entry: string, hooked: boolean) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `${hooked ? `import module from 'node:module'; import { resolveSources } from ${JSON.stringify(hook)}; module.registerHooks({ resolve: resolveSources });` : ''}
         try { const m = await import(${JSON.stringify(at(entry))}); console.log(m.value); }
         catch (error) { console.log(error.code, error.message); }`,
      ],
      { encoding: 'utf8' },
    ).stdout.trim();
  assert.equal(run('main.ts', true), '1');
  const unhooked = run('broken.ts', false);
  assert.match(unhooked, /^ERR_MODULE_NOT_FOUND /);
  assert.equal(run('broken.ts', true), unhooked);
});
