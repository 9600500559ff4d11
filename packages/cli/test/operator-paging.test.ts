import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStoreAt } from '@petstore/server';
import { cli as runCli } from './run-cli.ts';

type Json = Record<string, unknown>;
const ROWS = 7;

/** The operator's database mode: paging of logs and audit, keys roll, projects get and set-plan, usage. */
describe(
  'petstore on the database: --limit, --cursor, --all everywhere; roll, get, usage',
  { concurrency: 1 },
  () => {
    let dir: string;
    let database: string;
    const cli = (args: string[]) => runCli(args, { cwd: dir, env: { DATABASE_URL: database } });
    const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'petstore-operator-paging-'));
      database = join(dir, 'petstore.db');
      assert.equal((await cli(['migrate'])).code, 0);
      assert.equal(
        (await cli(['projects', 'create', '--name', 'Acme', '--slug', 'acme', '--plan', 'free'])).code,
        0,
      );
      const storage = await openStoreAt(database);
      const project = (await storage.projects.bySlug('acme'))!;
      const now = Date.now();
      await storage.requestLog.write(
        Array.from({ length: ROWS }, (_, n) => ({
          projectId: project.id,
          at: now - (n + 1) * 60_000,
          requestId: `req-${n}`,
          keyId: 'key_a',
          keyLabel: null,
          operation: 'listPets',
          method: 'GET',
          path: '/v1/pets',
          status: n % 2 === 0 ? 200 : 404,
          code: n % 2 === 0 ? null : 'not_found',
          latencyMs: 1,
          address: '192.0.2.1',
        })),
      );
      await storage.close();
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('logs --limit 3 → a page and the cursor of the next; following the cursors reads each row once; --all the same', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await cli([
          'logs',
          '--project',
          'acme',
          '--limit',
          '3',
          '--json',
          ...(cursor ? ['--cursor', cursor] : []),
        ]);
        assert.equal(page.code, 0, page.stderr);
        seen.push(...(JSON.parse(page.stdout) as Json[]).map((row) => row.requestId as string));
        cursor = /--cursor (\S+)/.exec(page.stderr)?.[1];
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(
        seen,
        Array.from({ length: ROWS }, (_, n) => `req-${n}`),
      );
      const all = await cli(['logs', '--project', 'acme', '--all', '--limit', '2']);
      assert.equal(all.stdout.match(/^TIME /gm)?.length, 1, 'one header');
      assert.equal(all.stdout.trimEnd().split('\n').length, ROWS + 1);
      const bad = await cli(['logs', '--project', 'acme', '--cursor', 'not-a-cursor']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /cursor/);
    });

    it('projects set-plan and keys create/roll write the audit trail through the services; audit pages it', async () => {
      assert.equal((await cli(['projects', 'set-plan', 'acme', '--plan', 'pro'])).code, 0);
      const created = await cli(['keys', 'create', '--project', 'acme', '--json']);
      const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
      const rolled = await cli(['keys', 'roll', id, '--overlap-seconds', '120']);
      assert.equal(rolled.code, 0, rolled.stderr);
      assert.match(rolled.stdout, new RegExp(`^rolled ${id} to key_\\S+ \\(${id} works until `));
      assert.match(lastLine(rolled.stdout), /^ps_test_/);
      assert.notEqual(lastLine(rolled.stdout), key);
      assert.equal((await cli(['keys', 'create', '--plan', 'free'])).code, 0);
      const mine = await cli(['keys', 'list', '--project', 'acme', '--limit', '1', '--json']);
      assert.equal((JSON.parse(mine.stdout) as Json[]).length, 1);
      const next = /--cursor (\S+)/.exec(mine.stderr)![1]!;
      const after = await cli(['keys', 'list', '--project', 'acme', '--cursor', next, '--json']);
      assert.equal(
        (JSON.parse(after.stdout) as Json[]).length,
        1,
        'the standalone key is not one of the project',
      );
      const twice = await cli(['keys', 'roll', id]);
      assert.equal(twice.code, 6, 'a conflict, as the API’s 409');
      assert.match(twice.stderr, /cannot be rolled/);

      const first = await cli(['audit', '--project', 'acme', '--limit', '2', '--json']);
      const page = JSON.parse(first.stdout) as Json[];
      assert.deepEqual(
        page.map((event) => event.action),
        ['key_rolled', 'key_created'],
      );
      const cursor = /--cursor (\S+)/.exec(first.stderr)![1]!;
      const rest = await cli(['audit', '--project', 'acme', '--cursor', cursor, '--json']);
      assert.deepEqual(
        (JSON.parse(rest.stdout) as Json[]).map((event) => [event.action, event.actor, event.target]),
        [
          ['plan_changed', 'operator', 'free → pro'],
          ['project_created', 'operator', 'Acme (free)'],
        ],
      );
      const all = await cli(['audit', '--project', 'acme', '--all', '--limit', '1', '--json']);
      assert.equal((JSON.parse(all.stdout) as Json[]).length, 4);
    });

    it('projects get → one project; an unknown slug → exit 3; a taken slug → exit 6', async () => {
      const get = await cli(['projects', 'get', 'acme', '--json']);
      assert.equal(get.code, 0, get.stderr);
      assert.equal((JSON.parse(get.stdout) as Json).plan, 'pro');
      assert.equal((await cli(['projects', 'get', 'nope'])).code, 3);
      assert.equal((await cli(['projects', 'set-plan', 'nope', '--plan', 'pro'])).code, 3);
      const taken = await cli(['projects', 'create', '--name', 'Again', '--slug', 'acme', '--plan', 'free']);
      assert.equal(taken.code, 6);
      assert.match(taken.stderr, /a project with slug acme already exists/);
    });

    it('usage → the periods of the last day with their counts, on the database too', async () => {
      const usage = await cli(['usage', '--project', 'acme', '--json']);
      assert.equal(usage.code, 0, usage.stderr);
      const { data } = JSON.parse(usage.stdout) as { data: Json[] };
      assert.equal(
        data.reduce((sum, row) => sum + (row.total as number), 0),
        ROWS,
      );
      assert.equal(
        data.reduce((sum, row) => sum + (row.clientErrors as number), 0),
        3,
      );
    });
  },
);
