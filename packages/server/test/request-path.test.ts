import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { FilesThatRan } from './request-path.ts';

const ARCHITECTURE = path.resolve(import.meta.dirname, '../../../docs/architecture.md');

/**
 * The files listed in docs/architecture.md between `<!-- request-path NAME -->` and
 * `<!-- /request-path -->`, one numbered item each, named relative to packages/server/src unless they
 * start with `packages/`.
 */
function documentedPath(name: string): string[] {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const start = text.indexOf(`<!-- request-path ${name} -->`);
  const end = text.indexOf('<!-- /request-path -->', start);
  assert.ok(start !== -1 && end !== -1, `docs/architecture.md has no block <!-- request-path ${name} -->`);
  return [...text.slice(start, end).matchAll(/^\d+\. `([^`]+)`/gm)].map(([, file]) =>
    file!.startsWith('packages/') ? file! : `packages/server/src/${file}`,
  );
}

/** Fails with what the document lacks, what it names that does not run, and the order that runs. */
function assertDocumented(name: string, ran: FilesThatRan): void {
  const documented = documentedPath(name);
  assert.deepEqual(ran.order.toSorted(), ran.files, 'every file that ran was traced');
  const missing = ran.order.filter((file) => !documented.includes(file));
  const extra = documented.filter((file) => !ran.order.includes(file));
  const actual = ran.order.map((file, i) => `${i + 1}. ${file.replace(/^packages\/server\/src\//, '')}`);
  assert.ok(
    missing.length === 0 && extra.length === 0 && documented.join() === ran.order.join(),
    [
      `docs/architecture.md's request path ${name} is not what runs.`,
      `Runs but not listed: ${missing.join(', ') || 'none'}.`,
      `Listed but does not run: ${extra.join(', ') || 'none'}.`,
      `What runs, in the order each file is first entered (${ran.order.length} files):`,
      ...actual,
    ].join('\n'),
  );
}

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'request-path.ts');

describe('docs/architecture.md names the files a warm authenticated request runs, in order', () => {
  let ran: Record<string, FilesThatRan>;

  before(async () => {
    ran = JSON.parse((await run(process.execPath, [SCRIPT])).stdout) as Record<string, FilesThatRan>;
  });

  it('GET /v1/pets/{petId} → 200: the files of the block "request-path GET /v1/pets/{petId}"', () => {
    assertDocumented('GET /v1/pets/{petId}', ran['GET /v1/pets/{petId}']!);
  });

  it('POST /v1/pets → 201: the files of the block "request-path POST /v1/pets"', () => {
    assertDocumented('POST /v1/pets', ran['POST /v1/pets']!);
  });
});
