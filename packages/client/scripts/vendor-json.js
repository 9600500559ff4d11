// After tsc: the client's one workspace dependency, @petstore/json, is not published on its own, so the
// build copies it into dist/vendor/ and points the compiled imports at that copy. The published client
// then depends on nothing, and its JSON handling is the very code the server and the docs page run.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SPECIFIER = '@petstore/json';
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const source = fileURLToPath(import.meta.resolve(SPECIFIER));

mkdirSync(`${dist}vendor`, { recursive: true });
copyFileSync(source, `${dist}vendor/petstore-json.js`);
copyFileSync(source.replace(/\.js$/, '.d.ts'), `${dist}vendor/petstore-json.d.ts`);

for (const name of readdirSync(dist).filter((file) => /\.(js|d\.ts)$/.test(file))) {
  const path = `${dist}${name}`;
  const text = readFileSync(path, 'utf8');
  const rewritten = text.replaceAll(`'${SPECIFIER}'`, "'./vendor/petstore-json.js'");
  if (rewritten !== text) writeFileSync(path, rewritten);
  if (rewritten.includes(SPECIFIER)) {
    console.error(`vendor-json: ${name} still names ${SPECIFIER}`);
    process.exit(1);
  }
}
