// Every build step (`npm run build`; `npm ci` runs it as `prepare`), so the program does no build work
// at run time: both contracts as JSON (scripts/emit-contracts.ts), the dependency bundle
// (scripts/build-dependencies.ts: the packages a start imports, in a few files instead of hundreds) and
// the typed client the docs page serves (scripts/build-client.ts). The program's own modules are not
// built: they run from their sources, so an edit runs at once.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildClientAssets } from './build-client.ts';
import { buildDependencies } from './build-dependencies.ts';
import { emitContracts } from './emit-contracts.ts';

const HELP = `Usage: node scripts/build.ts [--outdir DIR]

Emits both contracts as JSON into packages/contract/dist; bundles the packages the program imports into
DIR (default packages/cli/dist) with DIR/dependencies.json, what bin/petstore.js reads; builds the typed
client's browser module and npm package into packages/server/dist/docs.`;

const root = path.resolve(import.meta.dirname, '..');

/** Whether a package is installed where this script resolves it. */
function hasPackage(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log(HELP);
  } else if (!hasPackage('esbuild') || !hasPackage('typescript') || !hasPackage('yaml')) {
    console.error(
      'build: esbuild, typescript and yaml are development dependencies: build after a full `npm ci`; a ' +
        'production install (`npm ci --omit=dev --ignore-scripts`) takes packages/*/dist from such a build, ' +
        'as the Dockerfile does',
    );
    process.exitCode = 1;
  } else {
    console.log(`emitted the contracts: ${(await emitContracts()).join(', ')}`);
    const outdir = path.resolve(values.outdir ?? path.join(root, 'packages/cli/dist'));
    const began = performance.now();
    const manifest = await buildDependencies(outdir);
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    console.log(
      `bundled ${Object.keys(manifest.modules).length} packages into ${path.relative(root, outdir)} in ${seconds} s`,
    );
    console.log(`left in node_modules: ${manifest.external.join(', ')}`);
    const client = await buildClientAssets();
    console.log(`built the typed client for the docs page: ${client.files.join(', ')}`);
  }
}
