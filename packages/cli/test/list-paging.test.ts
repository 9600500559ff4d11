import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatTable } from '../src/table.ts';
import { cli as runCli } from './run-cli.ts';

describe('keys list pages with a cursor: --limit, --cursor, --all', () => {
  let dir: string;
  let database: string;
  const withDb = (args: string[]) => runCli(args, { cwd: dir, env: { DATABASE_URL: database } });
  const ids: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-keys-paging-'));
    database = join(dir, 'petstore.db');
    assert.equal((await withDb(['migrate'])).code, 0);
    for (let n = 0; n < 5; n++) {
      const created = await withDb(['keys', 'create', '--plan', 'free', '--label', `k${n}`, '--json']);
      ids.push((JSON.parse(created.stdout) as { id: string }).id);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const rowIds = (stdout: string) =>
    stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(' ', 1)[0]!);
  const cursorOf = (stderr: string) => /--cursor (\S+)/.exec(stderr)?.[1];

  it('--limit 2 → the first two keys, and the cursor of the next page on stderr; following it reads on to the end', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await withDb(['keys', 'list', '--limit', '2', ...(cursor ? ['--cursor', cursor] : [])]);
      assert.equal(page.code, 0, page.stderr);
      assert.match(page.stdout, /^ID +ENV +PLAN/);
      seen.push(...rowIds(page.stdout));
      cursor = cursorOf(page.stderr);
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ids, 'creation order, each key once');
  });

  it('--all → every key, one header, from any page size; --json --all → one array of every key', async () => {
    const all = await withDb(['keys', 'list', '--all', '--limit', '2']);
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout.match(/^ID /gm)?.length, 1);
    assert.deepEqual(rowIds(all.stdout), ids);
    assert.equal(cursorOf(all.stderr), undefined);
    const json = await withDb(['keys', 'list', '--all', '--limit', '2', '--json']);
    assert.deepEqual(
      (JSON.parse(json.stdout) as { id: string }[]).map((key) => key.id),
      ids,
    );
    const page = await withDb(['keys', 'list', '--limit', '3', '--json']);
    assert.deepEqual(
      (JSON.parse(page.stdout) as { id: string }[]).map((key) => key.id),
      ids.slice(0, 3),
    );
  });

  it('a cursor keys list did not print, or a limit out of range → exit 2 with the reason, nothing listed', async () => {
    for (const args of [
      ['--cursor', 'not-a-cursor'],
      ['--cursor', Buffer.from('[1,2]').toString('base64url')],
      ['--limit', '0'],
      ['--limit', '10001'],
    ]) {
      const result = await withDb(['keys', 'list', ...args]);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /--cursor|--limit/);
    }
  });

  it('formatTable → 200,000 rows without overflowing the call stack', () => {
    const rows = Array.from({ length: 200_000 }, (_, n) => [String(n)]);
    assert.ok(formatTable([{ title: 'N' }], rows).endsWith('199999'));
  });
});

describe('projects list pages by slug: --limit, --cursor, --all', () => {
  let dir: string;
  let database: string;
  const withDb = (args: string[]) => runCli(args, { cwd: dir, env: { DATABASE_URL: database } });
  const slugs = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-projects-paging-'));
    database = join(dir, 'petstore.db');
    assert.equal((await withDb(['migrate'])).code, 0);
    for (const slug of [...slugs].reverse()) {
      const created = await withDb(['projects', 'create', '--name', slug, '--slug', slug, '--plan', 'free']);
      assert.equal(created.code, 0, created.stderr);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('--limit 2 pages by slug to the end; --all and --json --all give every project once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await withDb([
        'projects',
        'list',
        '--limit',
        '2',
        ...(cursor ? ['--cursor', cursor] : []),
      ]);
      assert.equal(page.code, 0, page.stderr);
      seen.push(
        ...page.stdout
          .trimEnd()
          .split('\n')
          .slice(1)
          .map((line) => line.split(' ', 1)[0]!),
      );
      cursor = /--cursor (\S+)/.exec(page.stderr)?.[1];
    } while (cursor);
    assert.deepEqual(seen, slugs);
    const all = await withDb(['projects', 'list', '--all', '--limit', '2', '--json']);
    assert.deepEqual(
      (JSON.parse(all.stdout) as { slug: string }[]).map((project) => project.slug),
      slugs,
    );
    const bad = await withDb(['projects', 'list', '--cursor', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--cursor/);
  });
});
