// Exits 1 with one line unless the build's output would be used as it is: both contracts emitted (the
// server reads nothing else of them), the start-up bundle as new as every file it was built from (else
// bin/petstore.js runs the sources) and the typed client's files servable (else /docs/assets/ answers
// 503). The Dockerfile runs it, so no image ships a stale or partial build.
import { freshBundleEntry } from '../packages/cli/bin/bundle-entry.js';
import { readClientAssets } from '../packages/server/src/docs/client-assets.ts';
import { readContract } from '../packages/server/src/openapi/contract.ts';

const root = new URL('../', import.meta.url);
const problems: string[] = [];
for (const name of ['petstore', 'manage'] as const) {
  try {
    readContract(name);
  } catch (error) {
    problems.push((error as Error).message);
  }
}
if (freshBundleEntry(new URL('packages/cli/dist/', root)) === undefined) {
  problems.push('the start-up bundle (packages/cli/dist) is missing or older than its sources');
}
const client = readClientAssets();
if ('unavailable' in client) problems.push(client.unavailable);
if (problems.length > 0) {
  console.error(`check-build: ${problems.join('; ')}`);
  process.exit(1);
}
console.log('check-build: the contracts, the start-up bundle and the typed client are current');
