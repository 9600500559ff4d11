// The typed client as the docs page serves it, built here so that the server never compiles anything:
// the browser module (/docs/assets/petstore-client.js, bundled by esbuild) and the npm package
// (/docs/assets/petstore-client-<version>.tgz, transpiled by TypeScript). The server only reads them
// (packages/server/src/docs/client-assets.ts).
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLIENT_ASSETS_DIR,
  CLIENT_ASSETS_MANIFEST,
  CLIENT_DIR,
  CLIENT_ENTRY,
  type ClientAssetsManifest,
  clientPackageName,
  readManifest,
} from '../packages/server/src/docs/client-manifest.ts';
import { tarGz } from './tar.ts';

const root = path.resolve(import.meta.dirname, '..');
const JSON_SOURCE = fileURLToPath(import.meta.resolve('@petstore/json'));
const CONTRACT_TYPES = fileURLToPath(import.meta.resolve('@petstore/contract/index.d.ts'));
const MANAGE_TYPES = fileURLToPath(import.meta.resolve('@petstore/contract/manage.d.ts'));

/** The one import left in the browser module: the lossless JSON module, which the page loads as an asset. */
const LOSSLESS_JSON = { name: 'lossless-json', path: './lossless-json.js' };

/** The browser module, from the client's TypeScript source, and the files it was built from. */
async function browserModule(): Promise<{ body: Buffer; inputs: string[] }> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    // The client's source, as its package exports it under the `@petstore/source` condition.
    stdin: { contents: "export * from '@petstore/client';", resolveDir: CLIENT_DIR, loader: 'ts' },
    conditions: ['@petstore/source'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: LOSSLESS_JSON.name,
        setup(builder) {
          builder.onResolve({ filter: /^@petstore\/json$/ }, () => ({
            path: LOSSLESS_JSON.path,
            external: true,
          }));
        },
      },
    ],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('<stdin>'))
    .map((input) => path.join(root, input));
  return { body: Buffer.from(result.outputFiles[0]!.contents), inputs };
}

/** Relative `.ts` imports as the compiled files name them, and the workspace modules as vendored. */
const relink = (text: string) =>
  text
    .replace(/((?:from|import)\s*\(?\s*')(\.{1,2}\/[^']+)\.ts'/g, "$1$2.js'")
    .replaceAll("'@petstore/json'", "'./vendor/petstore-json.js'")
    .replaceAll("'@petstore/contract/manage'", "'./vendor/petstore-contract-manage.js'")
    .replaceAll("'@petstore/contract'", "'./vendor/petstore-contract.js'");

/** The published manifest: entry points in dist/, nothing of the workspace (scripts, source condition). */
function publishedManifest(): string {
  const {
    scripts: _scripts,
    devDependencies: _dev,
    files: _files,
    exports: _exports,
    ...rest
  } = readManifest();
  const exports = {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './package.json': './package.json',
  };
  return `${JSON.stringify({ ...rest, exports }, null, 2)}\n`;
}

/**
 * What `npm pack` makes of packages/client, with the same compiler: `dist/` with JavaScript and
 * declarations, `@petstore/json` and the contract's types vendored into `dist/vendor/` exactly as the
 * client's own build does, the README and the package's manifest.
 */
async function npmPackage(): Promise<{ body: Buffer; inputs: string[] }> {
  const { default: ts } = await import('typescript');
  const compilerOptions = {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    verbatimModuleSyntax: true,
  };
  const inputs = [path.join(CLIENT_DIR, 'package.json')];
  const read = (file: string) => {
    inputs.push(file);
    return readFileSync(file);
  };
  const files = new Map<string, Buffer>([
    ['package/package.json', Buffer.from(publishedManifest())],
    ['package/README.md', read(path.join(CLIENT_DIR, 'README.md'))],
  ]);
  const sources = path.join(CLIENT_DIR, 'src');
  for (const file of readdirSync(sources).filter((name) => /(?<!\.test)\.ts$/.test(name))) {
    const source = read(path.join(sources, file)).toString('utf8');
    const stem = file.slice(0, -3);
    const js = ts.transpileModule(source, { fileName: file, compilerOptions }).outputText;
    const dts = ts.transpileDeclaration(source, { fileName: file, compilerOptions }).outputText;
    files.set(`package/dist/${stem}.js`, Buffer.from(relink(js)));
    files.set(`package/dist/${stem}.d.ts`, Buffer.from(relink(dts)));
  }
  files.set('package/dist/vendor/petstore-json.js', read(JSON_SOURCE));
  files.set('package/dist/vendor/petstore-json.d.ts', read(JSON_SOURCE.replace(/\.js$/, '.d.ts')));
  files.set('package/dist/vendor/petstore-contract.d.ts', read(CONTRACT_TYPES));
  files.set('package/dist/vendor/petstore-contract-manage.d.ts', read(MANAGE_TYPES));
  return { body: tarGz(files), inputs };
}

/** Writes a file beside its final name, then renames it: a server reading the directory sees it whole. */
function replace(file: string, body: Buffer | string): void {
  const next = `${file}.${process.pid}`;
  writeFileSync(next, body);
  renameSync(next, file);
}

/**
 * Builds both files into `outdir` (default packages/server/dist/docs) and writes their manifest last:
 * when it was built and from which files, which the server checks before serving them.
 */
export async function buildClientAssets(outdir = CLIENT_ASSETS_DIR): Promise<ClientAssetsManifest> {
  const builtAt = Date.now();
  const [browser, tarball] = await Promise.all([browserModule(), npmPackage()]);
  mkdirSync(outdir, { recursive: true });
  replace(path.join(outdir, CLIENT_ENTRY), browser.body);
  replace(path.join(outdir, clientPackageName().file), tarball.body);
  const inputs = [...new Set([...browser.inputs, ...tarball.inputs])]
    .map((file) => path.relative(outdir, file).split(path.sep).join('/'))
    .sort();
  const manifest: ClientAssetsManifest = { builtAt, files: [CLIENT_ENTRY, clientPackageName().file], inputs };
  replace(path.join(outdir, CLIENT_ASSETS_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
