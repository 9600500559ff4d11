// Exits 1 with one line unless the build's output would be used as it is: both contracts emitted (the
// server reads nothing else of them), the dependency bundle as new as npm's record of node_modules (else
// bin/petstore.js imports the packages from node_modules) and the typed client's files servable (else
// /docs/assets/ answers 503). The Dockerfile runs it, so no image ships a stale or partial build.
import { dependencyModules } from '../packages/cli/bin/dependency-modules.js';
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
if (dependencyModules(new URL('packages/cli/dist/', root)) === undefined) {
  problems.push('the dependency bundle (packages/cli/dist) is missing or older than node_modules');
}
const client = readClientAssets();
if ('unavailable' in client) problems.push(client.unavailable);
if (problems.length > 0) {
  console.error(`check-build: ${problems.join('; ')}`);
  process.exit(1);
}
console.log('check-build: the contracts, the dependency bundle and the typed client are current');
