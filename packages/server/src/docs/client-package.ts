import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticAsset } from '../web/static-asset.ts';
import { asset } from './assets.ts';
import { CLIENT_DIR, clientPackageName, readManifest } from './client-manifest.ts';
import { tarGz } from './tar.ts';

/**
 * The typed client as an npm package, served at /docs/assets/<file> so that a project's readers can
 * `npm install` it from the service (it is not on a registry): what `npm pack` makes of
 * packages/client, built here from the same sources with the same compiler (TypeScript, loaded on the
 * first download only): `dist/` with JavaScript and declarations, `@petstore/json` and the contract's
 * types (`@petstore/contract`, the management API's too) vendored into
 * `dist/vendor/` exactly as the client's own build does, the README and the package's manifest.
 */
const JSON_SOURCE = fileURLToPath(import.meta.resolve('@petstore/json'));
const CONTRACT_TYPES = fileURLToPath(import.meta.resolve('@petstore/contract/index.d.ts'));
const MANAGE_TYPES = fileURLToPath(import.meta.resolve('@petstore/contract/manage.d.ts'));

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

async function build(): Promise<Buffer> {
  const { default: ts } = await import('typescript');
  const compilerOptions = {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    verbatimModuleSyntax: true,
  };
  const files = new Map<string, Buffer>([
    ['package/package.json', Buffer.from(publishedManifest())],
    ['package/README.md', readFileSync(path.join(CLIENT_DIR, 'README.md'))],
  ]);
  const sources = path.join(CLIENT_DIR, 'src');
  for (const file of readdirSync(sources).filter((name) => /(?<!\.test)\.ts$/.test(name))) {
    const source = readFileSync(path.join(sources, file), 'utf8');
    const stem = file.slice(0, -3);
    const js = ts.transpileModule(source, { fileName: file, compilerOptions }).outputText;
    const dts = ts.transpileDeclaration(source, { fileName: file, compilerOptions }).outputText;
    files.set(`package/dist/${stem}.js`, Buffer.from(relink(js)));
    files.set(`package/dist/${stem}.d.ts`, Buffer.from(relink(dts)));
  }
  files.set('package/dist/vendor/petstore-json.js', readFileSync(JSON_SOURCE));
  files.set('package/dist/vendor/petstore-json.d.ts', readFileSync(JSON_SOURCE.replace(/\.js$/, '.d.ts')));
  files.set('package/dist/vendor/petstore-contract.d.ts', readFileSync(CONTRACT_TYPES));
  files.set('package/dist/vendor/petstore-contract-manage.d.ts', readFileSync(MANAGE_TYPES));
  return tarGz(files);
}

let built: Promise<StaticAsset> | undefined;

/** The package's tarball as a docs asset, built at the first call and kept (a failed build is tried again). */
export function clientPackage(): Promise<StaticAsset> {
  built ??= build().then(
    (body) => asset(clientPackageName().file, body),
    (error: unknown) => {
      built = undefined;
      throw error;
    },
  );
  return built;
}
