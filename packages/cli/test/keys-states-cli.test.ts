import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../server/test/manage-support.ts';
import { formatInstant } from '../src/table.ts';
import { cli, type CliResult } from './run-cli.ts';
import { openStoreAt } from '../../server/src/features/store.ts';

type Mode = 'database' | 'api';

/** A key's state says the same words in both modes: the table's STATE, the JSON's state and stateUntil. */
describe('petstore keys: one vocabulary of states in both modes', { concurrency: 1 }, () => {
  let app: TestApp;
  let dir: string;
  let database: string;
  let origin: string;
  let owner: TokenHolder;
  const run = (mode: Mode, args: string[]): Promise<CliResult> =>
    mode === 'database'
      ? cli([...args, '--database', database], { cwd: dir })
      : cli(args, {
          cwd: join(dir, 'empty'),
          env: { PETSTORE_BASE_URL: origin, PETSTORE_ACCESS_TOKEN: owner.token },
        });
  const ok = async (mode: Mode, args: string[]) => {
    const result = await run(mode, args);
    assert.equal(result.code, 0, `${mode}: ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-key-states-'));
    await mkdir(join(dir, 'empty'));
    database = join(dir, 'petstore.db');
    app = await makeTestApp({ storage: await openStoreAt(database) });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    owner = await tokenHolder(app, ['acme']);
  });
  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a rolled key → "rolling until …" in both tables, rolling with stateUntil in both JSONs', async () => {
    const { id } = JSON.parse(await ok('database', ['keys', 'create', '--project', 'acme', '--json'])) as {
      id: string;
    };
    await ok('database', ['keys', 'roll', id, '--project', 'acme', '--overlap-seconds', '3600']);
    const until = (await app.storage.keys.get(id))!.expiresAt!;
    for (const mode of ['database', 'api'] as const) {
      const table = await ok(mode, ['keys', 'list', '--project', 'acme']);
      const row = table.split('\n').find((line) => line.startsWith(id))!;
      assert.match(row, new RegExp(`rolling until ${formatInstant(until, '')}$`), `${mode}: ${row}`);
      const key = JSON.parse(await ok(mode, ['keys', 'get', id, '--project', 'acme', '--json'])) as Record<
        string,
        unknown
      >;
      assert.equal(key.state, 'rolling');
      assert.equal(key.stateUntil, new Date(until).toISOString());
    }
  });

  it('a banned key → "banned until …" in both modes; an owner’s unban through the API → active again', async () => {
    const { id } = JSON.parse(await ok('api', ['keys', 'create', '--project', 'acme', '--json'])) as {
      id: string;
    };
    const until = Math.max(Date.now(), app.clock.now()) + 900_000;
    await app.storage.keys.ban(id, until);
    for (const mode of ['database', 'api'] as const) {
      const table = await ok(mode, ['keys', 'get', id, '--project', 'acme']);
      assert.match(table, new RegExp(`banned until ${formatInstant(until, '')}$`, 'm'), `${mode}: ${table}`);
      const key = JSON.parse(await ok(mode, ['keys', 'get', id, '--project', 'acme', '--json'])) as Record<
        string,
        unknown
      >;
      assert.deepEqual([key.state, key.stateUntil], ['banned', new Date(until).toISOString()]);
    }
    assert.match(await ok('api', ['keys', 'unban', id, '--project', 'acme']), /unbanned/);
    assert.match(await ok('database', ['keys', 'get', id, '--project', 'acme']), /active$/m);
    assert.match(await ok('api', ['keys', 'unban', id, '--project', 'acme']), /was not banned/);
  });

  it('keys update → the label and own limits changed in both modes; "none" clears a limit', async () => {
    const { id } = JSON.parse(await ok('api', ['keys', 'create', '--project', 'acme', '--json'])) as {
      id: string;
    };
    const changed = JSON.parse(
      await ok('api', [
        'keys',
        'update',
        id,
        '--project',
        'acme',
        '--label',
        'CI',
        '--per-minute',
        '7',
        '--json',
      ]),
    ) as { label: string; ownLimits: unknown };
    assert.deepEqual([changed.label, changed.ownLimits], ['CI', { perMinute: 7, perDay: null }]);
    const cleared = JSON.parse(
      await ok('database', ['keys', 'update', id, '--project', 'acme', '--per-minute', 'none', '--json']),
    ) as { label: string; ownLimits: unknown };
    assert.deepEqual([cleared.label, cleared.ownLimits], ['CI', { perMinute: null, perDay: null }]);
  });
});
