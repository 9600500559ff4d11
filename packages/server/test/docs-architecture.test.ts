import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..', '..');
/** Where a path in the document may be read from: the repository, or one of its packages' sources. */
const bases = [
  root,
  join(root, 'packages/server/src'),
  join(root, 'packages/server'),
  join(root, 'packages/cli/src'),
];

/**
 * Every file docs/architecture.md names in code spans (`http/turns.ts`, `openapi/manage.yaml`, …) exists:
 * the document describes the tree as it is. Patterns (`*-pages.ts`), URLs and package specifiers are not
 * files and are left out.
 */
test('docs/architecture.md names only files that exist', () => {
  const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const named = new Set(
    [...text.matchAll(/`([^`\s]+\.(?:ts|js|md|yaml|sql|json|css|sh))`/g)]
      .map((match) => match[1]!)
      .filter((path) => path.includes('/') && !/[*<>]/.test(path) && !/^[@/]|^https?:/.test(path)),
  );
  assert.ok(named.size > 50, `the document names ${named.size} files`);
  const missing = [...named].filter((path) => !bases.some((base) => existsSync(join(base, path))));
  assert.deepEqual(missing, []);
});
