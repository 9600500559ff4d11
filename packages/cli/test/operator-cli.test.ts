import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli as runCli, type CliResult } from './run-cli.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** One line on standard error, `petstore: …`, nothing on standard output. */
function assertOneLineError(result: CliResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, result.stderr);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0]!, /^petstore: /);
  assert.match(lines[0]!, pattern);
}

describe('petstore operator commands', () => {
  let dir: string;
  let database: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = dir) => runCli(args, { cwd, env });
  const withDb = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cli(args, { DATABASE_URL: database, ...env });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-cli-'));
    database = join(dir, 'server', 'petstore.db');
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--version → the version, exit 0', async () => {
    const result = await cli(['--version']);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `petstore ${version}\n`);
  });

  it('keys create without a database → exit 2, says where it looked and how to point elsewhere, creates nothing', async () => {
    const sub = join(dir, 'somewhere', 'deeper');
    await mkdir(sub, { recursive: true });
    const result = await cli(['keys', 'create', '--plan', 'free'], {}, sub);
    assertOneLineError(result, 2, /no database at .*somewhere\/deeper\/data\/petstore\.db/);
    assert.match(result.stderr, /DATABASE_URL is not set/);
    assert.match(result.stderr, /--database/);
    assert.match(result.stderr, /petstore migrate/);
    assert.equal(existsSync(join(sub, 'data')), false, 'no file or directory was created');
    const named = await withDb(['keys', 'list']);
    assertOneLineError(named, 2, /no database at .*server\/petstore\.db \(from DATABASE_URL\)/);
  });

  it('migrate → creates the database and says which one; keys then use it', async () => {
    const result = await withDb(['migrate']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^created a new database and applied 001_init/);
    assert.equal(result.stderr, `using database sqlite ${database}\n`);
    const again = await withDb(['migrate']);
    assert.equal(again.stdout, 'the database is up to date\n');
  });

  it('usage and configuration errors → one line naming the flag or setting, exit 2', async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [
        ['keys', 'create', '--plan', 'free', '--expires-in-days', '-1'],
        {},
        /--expires-in-days must be an integer from 1 to 36500, got "-1"/,
      ],
      [['keys', 'create', '--plan', 'free', '--expires-in-days', 'soon'], {}, /--expires-in-days must be/],
      [['keys', 'create', '--bogus'], {}, /unknown option --bogus; run "petstore keys --help"/],
      [['keys', 'create', '--plan'], {}, /--plan needs a value/],
      [['keys', 'list', '--json=yes'], {}, /--json takes no value/],
      [
        ['keys', 'create', '--plan', 'gold'],
        {},
        /--plan must be one of free, pro, business, enterprise, got "gold"/,
      ],
      [['keys', 'create', '--plan', 'enterprise'], {}, /enterprise key needs --per-minute/],
      [['keys', 'frobnicate'], {}, /unknown keys command "frobnicate"/],
      [['keys'], {}, /keys needs one of create, list/],
      [['keys', 'revoke'], {}, /keys revoke takes one key id/],
      [['nope'], {}, /unknown command "nope"/],
      [['serve'], { TRUST_PROXY: 'maybe' }, /^petstore: TRUST_PROXY must be .*got "maybe"$/],
      [
        ['serve'],
        { HOST: '999.1.1.1' },
        /^petstore: HOST must be an IP address or a host name, got "999.1.1.1"$/,
      ],
      [['serve', '--port', '70000'], {}, /--port must be an integer from 0 to 65535/],
      [['keys', 'list'], { PETSTORE_ENV: 'prod' }, /PETSTORE_ENV must be one of/],
    ];
    const results = await Promise.all(cases.map(([args, env]) => withDb(args, env)));
    results.forEach((result, index) => assertOneLineError(result, 2, cases[index]![2]));
  });

  it('keys list → a table with a header, environment, plan, label, created, last used, expires and state', async () => {
    const free = await withDb(['keys', 'create', '--plan', 'free', '--label', 'mobile app']);
    assert.equal(free.code, 0, free.stderr);
    assert.equal(free.stderr, `petstore: operator mode on the database sqlite ${database} (DATABASE_URL)\n`);
    assert.match(free.stdout.trimEnd().split('\n').at(-1)!, /^ps_test_[A-Za-z0-9_-]{43}$/);
    const enterprise = await withDb([
      'keys',
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      '5000',
      '--per-day',
      '9000000',
      '--expires-in-days',
      '30',
      '--json',
    ]);
    const created = JSON.parse(enterprise.stdout) as { id: string; expiresAt: number; environment: string };
    assert.equal(created.environment, 'test');

    const list = await withDb(['keys', 'list']);
    assert.equal(list.code, 0, list.stderr);
    const [header, ...rows] = list.stdout.trimEnd().split('\n');
    assert.match(header!, /^ID +ENV +PLAN +LABEL +CREATED +LAST USED +EXPIRES +STATE$/);
    assert.equal(rows.length, 2);
    for (const title of ['ENV', 'PLAN', 'LABEL', 'STATE']) {
      const column = header!.indexOf(title);
      assert.ok(
        rows.every((row) => row[column - 1] === ' ' && row[column] !== ' '),
        `${title} is aligned`,
      );
    }
    assert.match(
      rows[0]!,
      /key_\w+ +test +free +mobile app +\d{4}-\d\d-\d\d \d\d:\d\dZ +never +never +active$/,
    );
    assert.match(
      rows[1]!,
      /enterprise 5000\/min 9000000\/day +- +.* +never +\d{4}-\d\d-\d\d \d\d:\d\dZ +active$/,
    );
  });

  it('keys list --json → every key with lastUsedAt and state, never a digest', async () => {
    const result = await withDb(['keys', 'list', '--json']);
    const keys = JSON.parse(result.stdout) as Record<string, unknown>[];
    assert.equal(keys.length, 2);
    for (const key of keys) {
      assert.equal(key.lastUsedAt, null);
      assert.equal(key.state, 'active');
      assert.equal('digest' in key, false);
    }
  });

  it('keys revoke, then unban or set-plan on the revoked key → exit 6 (conflict); revoke again → exit 3, as through the API', async () => {
    const [first] = JSON.parse((await withDb(['keys', 'list', '--json'])).stdout) as { id: string }[];
    const revoked = await withDb(['keys', 'revoke', first!.id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout, `revoked ${first!.id}\n`);
    for (const args of [['unban'], ['set-plan', '--plan', 'pro']]) {
      const [action, ...rest] = args;
      const result = await withDb(['keys', action!, first!.id, ...rest]);
      assert.equal(result.code, 6, `${action}: ${result.stderr}`);
      assert.match(
        result.stderr.trimEnd().split('\n').at(-1)!,
        /^petstore: key_\w+ was revoked on .*: a revoked key cannot be changed$/,
      );
    }
    const again = await withDb(['keys', 'revoke', first!.id]);
    assert.equal(again.code, 3, again.stderr);
    assert.match(again.stderr.trimEnd().split('\n').at(-1)!, /^petstore: key_\w+ is already revoked \(on /);
    const unknown = await withDb(['keys', 'revoke', 'key_nope']);
    assert.equal(unknown.code, 3, 'an unknown key is not found');
    assert.match(unknown.stderr, /no key with id key_nope/);
  });

  it('keys set-plan on an active key → the new plan, shown by keys list', async () => {
    const keys = JSON.parse((await withDb(['keys', 'list', '--json'])).stdout) as {
      id: string;
      state: string;
    }[];
    const active = keys.find((key) => key.state === 'active')!;
    const result = await withDb(['keys', 'set-plan', active.id, '--plan', 'pro']);
    assert.equal(result.stdout, `${active.id} is now on plan pro (was enterprise)\n`);
  });

  it('keys create --project with --per-minute, then set-limits → the key’s own lower limits; above the project’s → refused', async () => {
    assert.equal(
      (await withDb(['projects', 'create', '--name', 'Caps', '--slug', 'caps', '--plan', 'free'])).code,
      0,
    );
    const created = await withDb(['keys', 'create', '--project', 'caps', '--per-minute', '10', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as {
      id: string;
      plan: string;
      ownPerMinute: number;
      ownPerDay: null;
    };
    assert.deepEqual([key.plan, key.ownPerMinute, key.ownPerDay], ['free', 10, null]);
    const above = await withDb(['keys', 'create', '--project', 'caps', '--per-day', '5000']);
    assert.equal(above.code, 2, above.stderr);
    assert.match(above.stderr, /petstore: --per-day 5000 is above project caps's limit \(1000\)/);
    const set = await withDb(['keys', 'set-limits', key.id, '--per-day', '200']);
    assert.equal(set.stdout, `${key.id}: own limits 200 a day\n`);
    const cleared = await withDb(['keys', 'set-limits', key.id]);
    assert.equal(cleared.stdout, `${key.id}: no limits of its own, its project's alone\n`);
  });

  it("a database without the service's tables → refused, exit 2", async () => {
    const empty = join(dir, 'empty.db');
    const { DatabaseSync } = await import('node:sqlite');
    new DatabaseSync(empty).close();
    const result = await cli(['keys', 'list'], { DATABASE_URL: empty });
    assertOneLineError(result, 2, /has no Pet Store tables/);
  });
});
