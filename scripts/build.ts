// Every build step (`npm run build`; `npm ci` runs it as `prepare`), so the server compiles nothing:
// bundles the CLI and server into packages/cli/dist/: a start then loads about 110 files instead of about
// 380 (start to first 200, median of eight: 378 → 331 ms, docs/benchmarks-history.md). bin/petstore.js runs the
// bundle only while every file it was built from is unchanged, and the sources otherwise, so an edit never
// runs stale code. And builds the typed client the docs page serves (scripts/build-client.ts).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BuildResult, Metafile, OutputFile, Plugin } from 'esbuild';
import { buildClientAssets } from './build-client.ts';
import { emitContracts } from './emit-contracts.ts';

const HELP = `Usage: node scripts/build.ts [--outdir DIR]

Bundles packages/cli/src/main.ts and everything it imports into DIR (default packages/cli/dist),
with a chunk per lazily imported module, and writes DIR/bundle.json: the files it was built from.
Then builds the typed client's browser module and npm package into packages/server/dist/docs. First of
all, emits both contracts as JSON into packages/contract/dist (scripts/emit-contracts.ts).`;

/** pg's optional native binding, loaded only if installed: always imported from node_modules. */
const ALWAYS_EXTERNAL = ['pg-native'];

/** Code that finds files next to itself cannot be moved into a chunk; its package stays in node_modules. */
const LOCATES_ITSELF = /\b__dirname\b|\b__filename\b|\brequire\.resolve\b|\bimport\.meta\b/;

const root = path.resolve(import.meta.dirname, '..');

export interface BundleManifest {
  /** Packages imported from node_modules at run time rather than bundled. */
  external: string[];
  /** Epoch ms at which the build started: a source changed after it makes the bundle stale. */
  builtAt: number;
  entry: string;
  /**
   * Our files the bundle was built from, and npm's record of node_modules (for the packages bundled),
   * relative to the bundle's directory.
   */
  inputs: string[];
}

/** The package a module path belongs to (`@scope/name` or `name`), for a bare import. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * Our own modules read files beside them through `import.meta`: each is given its own source location
 * (relative to the chunk, so the tree can move), and reads the same files as when run from sources.
 */
function sourceLocations(outdir: string): Plugin {
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return { contents: text, loader: 'ts' };
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        const dir = `__petstoreDirname(${url})`;
        const contents =
          `import { dirname as __petstoreDirnameOf } from 'node:path';\n` +
          `import { fileURLToPath as __petstorePathOf } from 'node:url';\n` +
          `const __petstoreDirname = (url) => __petstoreDirnameOf(__petstorePathOf(url));\n` +
          text
            .replaceAll('import.meta.url', '\u0000URL\u0000')
            .replaceAll('import.meta.dirname', dir)
            .replaceAll('import.meta.filename', `__petstorePathOf(${url})`)
            .replaceAll('\u0000URL\u0000', url);
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Leaves `names`, Node's own modules and packages imported lazily by our code unbundled. */
function external(names: Set<string>, lazyImports: Set<string>): Plugin {
  return {
    name: 'external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        // A package our code imports lazily is not on the start-up path, and a split chunk of a
        // CommonJS package would give import() only a default export, not Node's named exports.
        const lazy = args.kind === 'dynamic-import' && !args.path.startsWith('@petstore/');
        if (lazy) lazyImports.add(packageName(args.path));
        return lazy || names.has(packageName(args.path)) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

async function bundle(
  outdir: string,
  externals: Set<string>,
  lazyImports: Set<string>,
): Promise<BuildResult & { metafile: Metafile; outputFiles: OutputFile[] }> {
  const { build } = await import('esbuild');
  return build({
    absWorkingDir: root,
    entryPoints: { main: 'packages/cli/src/main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    chunkNames: 'chunk-[hash]',
    // Bundled CommonJS packages call require(): an ES module has none of its own.
    banner: {
      js: "import { createRequire as __petstoreRequire } from 'node:module';\nconst require = __petstoreRequire(import.meta.url);",
    },
    plugins: [external(externals, lazyImports), sourceLocations(outdir)],
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
}

/** Packages bundled whose code locates itself (see LOCATES_ITSELF), read from a build's inputs. */
function selfLocating(metafile: Metafile): Set<string> {
  const found = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf('node_modules/');
    if (at === -1 || !/\.[cm]?js$/.test(input)) continue;
    if (!LOCATES_ITSELF.test(readFileSync(path.join(root, input), 'utf8'))) continue;
    // Left unbundled, a nested copy would be imported as the top-level one, maybe another version.
    if (input.indexOf('node_modules/') !== at) {
      throw new Error(`${input} locates itself inside a nested package: add its parent to ALWAYS_EXTERNAL`);
    }
    found.add(packageName(input.slice(at + 'node_modules/'.length)));
  }
  return found;
}

/** A build's files are kept a day after a newer build: a server started before it may still import them. */
const EARLIER_BUILDS_KEPT_MS = 24 * 3_600_000;

/**
 * Writes a build beside the files of earlier ones, never over a file a running server may be reading:
 * chunks are named by their content, an unchanged file is left as it is, and `bundle.json` is renamed
 * into place last, so a start sees the old build or the new one, whole. Files of earlier builds go
 * once they are a day old.
 */
function writeOutputs(outdir: string, files: OutputFile[], manifest: BundleManifest): void {
  mkdirSync(outdir, { recursive: true });
  const keep = new Set(['bundle.json']);
  for (const file of files) {
    keep.add(path.basename(file.path));
    let current: Buffer | undefined;
    try {
      current = readFileSync(file.path);
    } catch {
      current = undefined;
    }
    if (current === undefined || !current.equals(file.contents)) writeFileSync(file.path, file.contents);
  }
  const next = path.join(outdir, `bundle.json.${process.pid}`);
  writeFileSync(next, `${JSON.stringify(manifest)}\n`);
  renameSync(next, path.join(outdir, 'bundle.json'));
  for (const name of readdirSync(outdir)) {
    const file = path.join(outdir, name);
    if (!keep.has(name) && statSync(file).mtimeMs < manifest.builtAt - EARLIER_BUILDS_KEPT_MS) rmSync(file);
  }
}

export async function buildBundle(outdir: string): Promise<BundleManifest> {
  const builtAt = Date.now();
  const externals = new Set(ALWAYS_EXTERNAL);
  // A second pass when the first bundled packages that must stay in node_modules.
  for (let pass = 0; ; pass++) {
    const lazyImports = new Set<string>();
    const { metafile, outputFiles } = await bundle(outdir, externals, lazyImports);
    const more = [...selfLocating(metafile)].filter((name) => !externals.has(name));
    if (more.length === 0) {
      const manifest: BundleManifest = {
        external: [...new Set([...externals, ...lazyImports])].sort(),
        builtAt,
        entry: 'main.js',
        inputs: [
          ...Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/')),
          // npm rewrites its hidden lockfile whenever it changes node_modules: one file stands for all.
          'node_modules/.package-lock.json',
        ].map((input) => path.relative(outdir, path.join(root, input)).split(path.sep).join('/')),
      };
      writeOutputs(outdir, outputFiles, manifest);
      return manifest;
    }
    if (pass > 0) throw new Error(`packages still locating themselves: ${more.join(', ')}`);
    for (const name of more) externals.add(name);
  }
}

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
  } else if (!hasPackage('esbuild') || !hasPackage('typescript')) {
    console.error(
      'build: esbuild and typescript are development dependencies: build after a full `npm ci`; a production ' +
        'install (`npm ci --omit=dev --ignore-scripts`) takes packages/cli/dist and packages/server/dist from ' +
        'such a build, as the Dockerfile does',
    );
    process.exitCode = 1;
  } else {
    console.log(`emitted the contracts: ${(await emitContracts()).join(', ')}`);
    const outdir = path.resolve(values.outdir ?? path.join(root, 'packages/cli/dist'));
    const began = performance.now();
    const manifest = await buildBundle(outdir);
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    console.log(
      `bundled into ${path.relative(root, outdir)} in ${seconds} s, from ${manifest.inputs.length - 1} files of ours`,
    );
    console.log(`left in node_modules: ${manifest.external.join(', ')}`);
    const client = await buildClientAssets();
    console.log(`built the typed client for the docs page: ${client.files.join(', ')}`);
  }
}
