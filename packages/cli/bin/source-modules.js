import { lstatSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Resolves the program's own relative imports of TypeScript modules (`./x.ts`, `../y/z.ts` from a
 * module outside node_modules) by joining them to the importer's URL, as ES modules in a
 * `"type": "module"` package (every package of this repository is one, test/source-modules.test.ts
 * checks it). Node.js's resolution of each costs a realpath, a search for its package.json and its
 * format's, and a `serve` makes about 600 of them before its first answer: a quarter of the CPU time
 * of its imports. A target that is not a regular file (missing, a directory, a symlink resolution
 * would follow) is left to Node.js, which answers as it always does.
 */
export function resolveSources(specifier, context, next) {
  const parent = context.parentURL;
  if (
    parent?.startsWith('file:') &&
    (specifier.startsWith('./') || specifier.startsWith('../')) &&
    specifier.endsWith('.ts') &&
    !parent.includes('/node_modules/')
  ) {
    const url = new URL(specifier, parent);
    if (lstatSync(fileURLToPath(url), { throwIfNoEntry: false })?.isFile()) {
      return { url: url.href, format: 'module-typescript', shortCircuit: true };
    }
  }
  return next(specifier, context);
}
