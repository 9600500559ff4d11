// After tsc: the client's workspace dependencies are not published on their own, so the build copies
// them into dist/vendor/ and points the compiled imports at those copies: @petstore/json (the very JSON
// code the server and the docs page run) and @petstore/contract (the types generated from the
// contract, type-only: the pets API's and the management API's). The published client then depends on nothing.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const json = fileURLToPath(import.meta.resolve('@petstore/json'));
const VENDORED = {
  '@petstore/json': './vendor/petstore-json.js',
  '@petstore/contract/manage': './vendor/petstore-contract-manage.js',
  '@petstore/contract': './vendor/petstore-contract.js',
};

mkdirSync(`${dist}vendor`, { recursive: true });
copyFileSync(json, `${dist}vendor/petstore-json.js`);
copyFileSync(json.replace(/\.js$/, '.d.ts'), `${dist}vendor/petstore-json.d.ts`);
copyFileSync(
  fileURLToPath(import.meta.resolve('@petstore/contract/index.d.ts')),
  `${dist}vendor/petstore-contract.d.ts`,
);
copyFileSync(
  fileURLToPath(import.meta.resolve('@petstore/contract/manage.d.ts')),
  `${dist}vendor/petstore-contract-manage.d.ts`,
);

for (const name of readdirSync(dist).filter((file) => /\.(js|d\.ts)$/.test(file))) {
  const path = `${dist}${name}`;
  const text = readFileSync(path, 'utf8');
  let rewritten = text;
  for (const [specifier, vendored] of Object.entries(VENDORED)) {
    rewritten = rewritten.replaceAll(`'${specifier}'`, `'${vendored}'`);
  }
  if (rewritten !== text) writeFileSync(path, rewritten);
  const left = Object.keys(VENDORED).find((specifier) => rewritten.includes(specifier));
  if (left) {
    console.error(`vendor: ${name} still names ${left}`);
    process.exit(1);
  }
}
