// The dependency bundle (`npm run build`, which `npm ci` runs as `prepare`): every package the program
// imports, pre-bundled with esbuild into a few ES modules in packages/cli/dist/, so a start reads a few
// files instead of hundreds (Fastify alone is about 150 with its dependencies). Only the packages are
// bundled; the program's own modules always run from their sources, so an edit needs no build.
// bin/petstore.js resolves the packages to the bundle while it is as new as npm's record of
// node_modules (one stat), and to node_modules otherwise.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Metafile, OutputFile, Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

/** The program: the command line's entry reaches every module (commands and areas are imported lazily). */
const ENTRY = 'packages/cli/src/main.ts';

/** pg's optional native binding, loaded only if installed: always imported from node_modules. */
const ALWAYS_EXTERNAL = ['pg-native'];

/** Code that finds files next to itself cannot be moved into a chunk; its package stays in node_modules. */
const LOCATES_ITSELF = /\b__dirname\b|\b__filename\b|\brequire\.resolve\b|\bimport\.meta\b/;

/** A package our code locates with import.meta.resolve (a file it serves, a worker's module) stays too. */
const LOCATED_BY_US = /import\.meta\.resolve\(\s*'([^'.][^']*)'\s*\)/g;

export interface DependencyManifest {
  /** Epoch ms at which the build started: npm's record of node_modules newer than this makes it stale. */
  builtAt: number;
  /** npm's record of node_modules, relative to the bundle's directory (npm rewrites it on every change). */
  lockfile: string;
  /** Each bundled import specifier and its module, relative to the bundle's directory. */
  modules: Record<string, string>;
  /** Packages the program imports from node_modules all the same (they locate their own files). */
  external: string[];
}

/** The package a module specifier belongs to (`@scope/name` or `name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * The package specifiers our modules import, statically or lazily (node: built-ins and our workspace
 * packages aside), and the packages they locate with import.meta.resolve.
 */
async function importedPackages(): Promise<{ imported: Set<string>; located: Set<string> }> {
  const { build } = await import('esbuild');
  const imported = new Set<string>();
  const located = new Set<string>();
  const record: Plugin = {
    name: 'record-packages',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        // Our workspace packages are sources: followed, never bundled.
        if (args.path.startsWith('@petstore/')) return undefined;
        if (!args.path.startsWith('node:')) imported.add(args.path);
        return { path: args.path, external: true };
      });
      builder.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        for (const [, name] of text.matchAll(LOCATED_BY_US)) {
          if (!name!.startsWith('@petstore/')) located.add(packageName(name!));
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
  await build({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    outdir: 'unused',
    splitting: true,
    plugins: [record],
    logLevel: 'warning',
  });
  return { imported, located };
}

const identifier = (specifier: string) => specifier.replace(/^@/, '').replace(/[^A-Za-z0-9_-]/g, '__');

/**
 * An ES module that re-exports a package as Node.js imports it: a CommonJS package's module.exports
 * as the default export and each name Node.js finds in it (cjs-module-lexer) as a named export, read
 * once it has run, as Node.js does; an ES module package as it is.
 */
async function facade(specifier: string, resolveFrom: NodeJS.Require): Promise<string> {
  const resolved = resolveFrom.resolve(specifier);
  const namespace = (await import(resolved)) as Record<string, unknown>;
  const from = JSON.stringify(specifier);
  const names = Object.keys(namespace).filter((name) => name !== 'default' && name !== 'module.exports');
  if (!('module.exports' in namespace)) {
    return `export * from ${from};\n${'default' in namespace ? `export { default } from ${from};\n` : ''}`;
  }
  // require() is bundled as the very module.exports (an import would go through esbuild's interop).
  const lines = [`const cjs = require(${from});`, 'export default cjs;'];
  names.forEach((name, index) => {
    lines.push(
      `const _${index} = cjs[${JSON.stringify(name)}];`,
      `export { _${index} as ${JSON.stringify(name)} };`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/** Leaves `names` and Node.js's own modules in node_modules. */
function external(names: Set<string>): Plugin {
  return {
    name: 'external-packages',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('node:') || names.has(packageName(args.path))
          ? { path: args.path, external: true }
          : undefined,
      );
    },
  };
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
 * chunks are named by their content, an unchanged file is left as it is, and the manifest is renamed
 * into place last, so a start sees the old build or the new one, whole. Files of earlier builds go
 * once they are a day old.
 */
function writeOutputs(outdir: string, files: OutputFile[], manifest: DependencyManifest): void {
  mkdirSync(outdir, { recursive: true });
  const keep = new Set([MANIFEST]);
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
  const next = path.join(outdir, `${MANIFEST}.${process.pid}`);
  writeFileSync(next, `${JSON.stringify(manifest)}\n`);
  renameSync(next, path.join(outdir, MANIFEST));
  for (const name of readdirSync(outdir)) {
    const file = path.join(outdir, name);
    if (!keep.has(name) && statSync(file).mtimeMs < manifest.builtAt - EARLIER_BUILDS_KEPT_MS) rmSync(file);
  }
}

/** The manifest bin/petstore.js reads (dependency-modules.js). */
export const MANIFEST = 'dependencies.json';

export async function buildDependencies(outdir: string): Promise<DependencyManifest> {
  const builtAt = Date.now();
  const { build } = await import('esbuild');
  const { imported, located } = await importedPackages();
  const resolveFrom = createRequire(path.join(root, 'packages/server/package.json'));
  const externals = new Set([...ALWAYS_EXTERNAL, ...located]);
  // A second pass when the first bundled packages that must stay in node_modules.
  for (let pass = 0; ; pass++) {
    const specifiers = [...imported].filter((specifier) => !externals.has(packageName(specifier))).sort();
    const sources = new Map<string, string>();
    for (const specifier of specifiers)
      sources.set(identifier(specifier), await facade(specifier, resolveFrom));
    const { metafile, outputFiles } = await build({
      absWorkingDir: root,
      entryPoints: [...sources.keys()].map((name) => ({ in: `facade:${name}`, out: name })),
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      chunkNames: 'chunk-[hash]',
      // Licence comments go to a .LEGAL.txt file beside each module: one non-ASCII character among them
      // (Fastify's module holds one) makes Node.js decode the whole file as UTF-8 into a two-byte string,
      // a fifth of the CPU time of Fastify's import. The rest is ASCII (esbuild's charset).
      legalComments: 'external',
      // Bundled CommonJS packages call require(): an ES module has none of its own.
      banner: {
        js: "import { createRequire as __petstoreRequire } from 'node:module';\nconst require = __petstoreRequire(import.meta.url);",
      },
      plugins: [
        external(externals),
        {
          name: 'facades',
          setup(builder) {
            builder.onResolve({ filter: /^facade:/ }, (args) => ({ path: args.path, namespace: 'facade' }));
            builder.onLoad({ filter: /.*/, namespace: 'facade' }, (args) => ({
              contents: sources.get(args.path.slice('facade:'.length)),
              resolveDir: path.join(root, 'packages/server'),
              loader: 'js',
            }));
          },
        },
      ],
      metafile: true,
      write: false,
      logLevel: 'warning',
    });
    const more = [...selfLocating(metafile)].filter((name) => !externals.has(name));
    if (more.length === 0) {
      const manifest: DependencyManifest = {
        builtAt,
        lockfile: path
          .relative(outdir, path.join(root, 'node_modules/.package-lock.json'))
          .split(path.sep)
          .join('/'),
        modules: Object.fromEntries(
          specifiers.map((specifier) => [specifier, `${identifier(specifier)}.js`]),
        ),
        external: [...externals].sort(),
      };
      writeOutputs(outdir, outputFiles, manifest);
      return manifest;
    }
    if (pass > 0) throw new Error(`packages still locating themselves: ${more.join(', ')}`);
    for (const name of more) externals.add(name);
  }
}
