import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serviceSettings } from '../../server/src/features/domains/settings.ts';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../server/test/manage-support.ts';
import { EXIT } from '../src/exit.ts';
import { cli, type CliResult } from './run-cli.ts';
import { openStoreAt } from '../../server/src/features/store.ts';

type Mode = 'database' | 'api';

/**
 * The exit status is the outcome's, not the mode's: each outcome is brought about once on the server's
 * database and once through the management API (from an empty directory, with an owner's write
 * token), and both must end with the status docs/cli.md gives it.
 */
describe('petstore exit statuses by outcome: the same in both modes', { concurrency: 1 }, () => {
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
  /** A new key of acme, made in `mode`: its id. */
  const newKey = async (mode: Mode): Promise<string> => {
    const created = await run(mode, ['keys', 'create', '--project', 'acme', '--json']);
    assert.equal(created.code, 0, created.stderr);
    return (JSON.parse(created.stdout) as { id: string }).id;
  };
  /** Runs `args` in both modes; each must end with `status`, the error said on the last line. */
  const both = async (status: number, args: (mode: Mode) => Promise<string[]> | string[], said?: RegExp) => {
    for (const mode of ['database', 'api'] as const) {
      const command = await args(mode);
      const result = await run(mode, command);
      assert.equal(result.code, status, `${mode}: petstore ${command.join(' ')}: ${result.stderr}`);
      const last = result.stderr.trimEnd().split('\n').at(-1)!;
      if (said) assert.match(last, said, `${mode}: ${command.join(' ')}`);
    }
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-exit-modes-'));
    await mkdir(join(dir, 'empty'));
    database = join(dir, 'petstore.db');
    app = await makeTestApp({ storage: await openStoreAt(database) });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    owner = await tokenHolder(app, ['acme']);
    // What a running service records at start-up; the database mode's domains need it.
    await serviceSettings(app.storage.sql).record(
      {
        servers: ['127.0.0.1:9'],
        siteDomain: 'sites.localhost',
        apiHost: null,
        caIdentity: 'letsencrypt.org',
        enterpriseDomains: null,
      },
      app.clock.now(),
    );
  });
  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('done → 0', async () => {
    await both(EXIT.ok, () => ['projects', 'get', 'acme']);
    await both(EXIT.ok, () => ['members', 'list', '--project', 'acme']);
    await both(EXIT.ok, async (mode) => ['keys', 'get', await newKey(mode), '--project', 'acme']);
    await both(EXIT.ok, async (mode) => [
      'keys',
      'update',
      await newKey(mode),
      '--project',
      'acme',
      '--label',
      'L',
    ]);
    await both(EXIT.ok, async (mode) => ['keys', 'unban', await newKey(mode), '--project', 'acme']);
  });

  it('a value the service refuses → 2 (usage), before or after it is sent', async () => {
    await both(EXIT.usage, () => ['keys', 'create', '--project', 'acme', '--label', 'x'.repeat(101)]);
    await both(EXIT.usage, () => ['logs', '--project', 'acme', '--cursor', 'altered'], /cursor/);
    await both(EXIT.usage, () => ['keys', 'create', '--project', 'acme', '--per-minute', '1000000']);
    await both(EXIT.usage, () => ['keys', 'update', 'key_any', '--project', 'acme'], /needs --label/);
    await both(EXIT.usage, () => ['keys', 'update', 'key_any', '--project', 'acme', '--per-day', '1001']);
  });

  it('a project, key, member, invitation or domain that does not exist → 3; so is a key revoked already', async () => {
    await both(EXIT.notFound, () => ['projects', 'get', 'nope']);
    await both(EXIT.notFound, () => ['keys', 'revoke', 'key_nope', '--project', 'acme']);
    await both(EXIT.notFound, () => ['keys', 'get', 'key_nope', '--project', 'acme']);
    await both(EXIT.notFound, () => ['keys', 'unban', 'key_nope', '--project', 'acme']);
    await both(EXIT.notFound, () => ['keys', 'list', '--project', 'nope']);
    await both(EXIT.notFound, () => ['members', 'remove', 'nobody@example.com', '--project', 'acme']);
    await both(EXIT.notFound, () => ['invitations', 'revoke', 'inv_nope', '--project', 'acme']);
    await both(EXIT.notFound, () => ['domains', 'remove', 'nope.example.com', '--project', 'acme']);
    await both(EXIT.notFound, () => ['logs', '--project', 'nope']);
    await both(
      EXIT.notFound,
      async (mode) => {
        const id = await newKey(mode);
        assert.equal((await run(mode, ['keys', 'revoke', id, '--project', 'acme'])).code, 0);
        return ['keys', 'revoke', id, '--project', 'acme'];
      },
      /already revoked/,
    );
  });

  it('what the project’s plan does not allow → 5 (not allowed)', async () => {
    await both(
      EXIT.notAllowed,
      () => ['domains', 'add', 'docs.example.com', '--project', 'acme'],
      /Pro plan/,
    );
  });

  it('what exists but whose state forbids it → 6 (conflict): a second roll, the last owner, a member invited', async () => {
    // The outcomes above used the Free plan's ten keys in use: make room for the keys made below.
    for (const key of await app.storage.keys.list('prj_acme'))
      await app.storage.keys.revoke(key.id, app.clock.now());
    await both(
      EXIT.conflict,
      async (mode) => {
        const id = await newKey(mode);
        assert.equal((await run(mode, ['keys', 'roll', id, '--project', 'acme'])).code, 0);
        return ['keys', 'roll', id, '--project', 'acme'];
      },
      /cannot be rolled/,
    );
    await both(
      EXIT.conflict,
      () => ['members', 'set-role', owner.email, '--role', 'viewer', '--project', 'acme'],
      /last owner/,
    );
    await both(
      EXIT.conflict,
      () => ['invitations', 'create', '--email', owner.email, '--project', 'acme'],
      /a member already/,
    );
    await both(
      EXIT.conflict,
      async (mode) => {
        const id = await newKey(mode);
        assert.equal((await run(mode, ['keys', 'revoke', id, '--project', 'acme'])).code, 0);
        return ['keys', 'update', id, '--project', 'acme', '--label', 'late'];
      },
      /revoked/,
    );
  });

  it('a key beyond the plan’s keys in use → 6 (conflict), key_limit_reached', async () => {
    for (;;) {
      const created = await run('database', ['keys', 'create', '--project', 'acme', '--json']);
      if (created.code !== 0) break;
    }
    await both(EXIT.conflict, () => ['keys', 'create', '--project', 'acme'], /allows 10 keys in use/);
  });
});
