// Writes packages/contract/src/index.d.ts, the types of the API's requests, answers and errors, from
// openapi/petstore.yaml with openapi-typescript, and packages/contract/src/manage.d.ts, the management
// API's, from openapi/manage.yaml. 64-bit integers (`format: int64`) become `bigint`, as
// the server and the client read them. `--check` fails when the file is not what the contract gives.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const CONTRACT = new URL('../openapi/petstore.yaml', import.meta.url);
export const TYPES_FILE = fileURLToPath(new URL('../packages/contract/src/index.d.ts', import.meta.url));
const MANAGE_CONTRACT = new URL('../openapi/manage.yaml', import.meta.url);
export const MANAGE_TYPES_FILE = fileURLToPath(
  new URL('../packages/contract/src/manage.d.ts', import.meta.url),
);

const HEADER = `// Generated from openapi/petstore.yaml by scripts/generate-contract-types.ts: do not edit.
// Run \`npm run generate:types\` after changing the contract; the tests fail while this file is stale.
`;

/** The types of one OpenAPI document, 64-bit integers as bigint. */
async function documentTypes(document: URL): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ts = (await import('typescript')).default;
  const ast = await openapiTS(document, {
    exportType: false,
    transform(schema) {
      const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (schema.format === 'int64' && types.includes('integer')) {
        const bigint = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);
        if (!types.includes('null')) return bigint;
        return ts.factory.createUnionTypeNode([
          bigint,
          ts.factory.createLiteralTypeNode(ts.factory.createNull()),
        ]);
      }
      return undefined;
    },
  });
  return astToString(ast);
}

/** The text manage.d.ts must hold for openapi/manage.yaml as it is now. */
export async function manageTypes(): Promise<string> {
  const header = HEADER.replaceAll('openapi/petstore.yaml', 'openapi/manage.yaml');
  return `${header}\n${await documentTypes(MANAGE_CONTRACT)}
/** A project as the management API shows it. */
export type ManagedProject = components['schemas']['Project'];
/** An API key as the management API shows it (never its secret). */
export type ManagedKey = components['schemas']['Key'];
/** An event of a project's audit trail. */
export type AuditEvent = components['schemas']['AuditEvent'];
`;
}

/** The text index.d.ts must hold for the contract as it is now. */
export async function contractTypes(): Promise<string> {
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
  return `${HEADER}\n${await documentTypes(CONTRACT)}${aliases}`;
}

async function main(args: string[]): Promise<number> {
  let stale = 0;
  for (const [file, expected] of [
    [TYPES_FILE, await contractTypes()],
    [MANAGE_TYPES_FILE, await manageTypes()],
  ] as const) {
    if (!args.includes('--check')) await writeFile(file, expected);
    else if ((await readFile(file, 'utf8').catch(() => '')) !== expected) {
      console.error(`${file} is stale: run npm run generate:types`);
      stale = 1;
    }
  }
  return stale;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
