// Writes packages/contract/src/index.d.ts, the types of the API's requests, answers and errors, from
// openapi/petstore.yaml with openapi-typescript. 64-bit integers (`format: int64`) become `bigint`, as
// the server and the client read them. `--check` fails when the file is not what the contract gives.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const CONTRACT = new URL('../openapi/petstore.yaml', import.meta.url);
export const TYPES_FILE = fileURLToPath(new URL('../packages/contract/src/index.d.ts', import.meta.url));

const HEADER = `// Generated from openapi/petstore.yaml by scripts/generate-contract-types.ts: do not edit.
// Run \`npm run generate:types\` after changing the contract; the tests fail while this file is stale.
`;

/** The text index.d.ts must hold for the contract as it is now. */
export async function contractTypes(): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ts = (await import('typescript')).default;
  const ast = await openapiTS(CONTRACT, {
    exportType: false,
    transform(schema) {
      const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (schema.format === 'int64' && types.includes('integer')) {
        return ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);
      }
      return undefined;
    },
  });
  const aliases = `
/** Availability of a pet. */
export type PetStatus = components['schemas']['PetStatus'];
/** A pet to add: 64-bit integers are \`bigint\`, so no digit is ever lost. */
export type NewPet = components['schemas']['NewPet'];
/** A pet as stored. */
export type Pet = components['schemas']['Pet'];
/** The Error body of every failure. */
export type ErrorBody = components['schemas']['Error'];
/** The service's closed catalogue of error codes. */
export type ApiErrorCode = ErrorBody['code'];
`;
  return `${HEADER}\n${astToString(ast)}${aliases}`;
}

async function main(args: string[]): Promise<number> {
  const expected = await contractTypes();
  if (args.includes('--check')) {
    const current = await readFile(TYPES_FILE, 'utf8').catch(() => '');
    if (current === expected) return 0;
    console.error(`${TYPES_FILE} is stale: run npm run generate:types`);
    return 1;
  }
  await writeFile(TYPES_FILE, expected);
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
