import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../server/test/manage-support.ts';
import { cli } from './run-cli.ts';

type Json = Record<string, unknown>;

/**
 * The operator commands with an access token: a temporary directory with no database and none of the
 * server's settings, talking to a server on a port through the management API.
 */
describe('petstore with an access token: the management API from any machine', { concurrency: 1 }, () => {
  let app: TestApp;
  let dir: string;
  let config: string;
  let origin: string;
  /** The same server as `origin`, by the name a login is saved under. */
  let local: string;
  let owner: TokenHolder;
  let viewer: TokenHolder;
  /** Runs petstore in the empty directory with the saved login (if any) and `env`. */
  const run = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string) =>
    cli(args, { cwd: dir, env: { PETSTORE_BASE_URL: origin, XDG_CONFIG_HOME: config, ...env }, input });
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

  before(async () => {
    app = await makeTestApp();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    local = origin.replace('127.0.0.1', 'localhost');
    owner = await tokenHolder(app, ['acme', 'beta']);
    viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
    dir = await mkdtemp(join(tmpdir(), 'petstore-manage-cli-'));
    config = join(dir, 'config');
  });
  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('login --token → checked with GET /projects, saved 0600 under the base URL; a refused token is not saved', async () => {
    const refused = await run(['login', '--token', 'ps_at_wrong']);
    assert.equal(refused.code, 5, 'not allowed');
    assert.match(refused.stderr, /^petstore: 401 unauthorized: .*run "petstore login" again/m);
    assert.equal(existsSync(join(config, 'petstore', 'credentials.json')), false);

    const result = await run(['login', '--token', owner.token]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      `logged in to ${origin}/manage/v1 as token ${owner.token.slice(0, 10)}…: 2 projects (acme, beta)\n`,
    );
    const file = join(config, 'petstore', 'credentials.json');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { tokens: Record<string, { token: string }> };
    assert.deepEqual(
      Object.keys(saved.tokens),
      [`${local}/manage/v1`],
      'saved under one spelling of loopback',
    );
    assert.equal(saved.tokens[`${local}/manage/v1`]!.token, owner.token);
  });

  it('a login saved for 127.0.0.1 serves localhost and [::1] alike; login and logout by any spelling are that one login', async () => {
    const file = join(config, 'petstore', 'credentials.json');
    const logins = async () => JSON.parse(await readFile(file, 'utf8')) as { tokens: Record<string, Json> };
    const viaLocalhost = await run(['projects', 'list'], { PETSTORE_BASE_URL: `${local}/v1` });
    assert.equal(viaLocalhost.code, 0, viaLocalhost.stderr);
    assert.equal(
      viaLocalhost.stderr,
      `petstore: management API at ${local}/manage/v1 as token ${owner.token.slice(0, 10)}… (saved by petstore login)\n`,
    );
    const v6 = origin.replace('127.0.0.1', '[::1]');
    const viaV6 = await run(['projects', 'list', '--base-url', `${v6}/`, '--connect-timeout', '1']);
    assert.match(
      viaV6.stderr,
      /^petstore: management API at http:\/\/\[::1\]:\d+\/manage\/v1 as token ps_at_\S+… \(saved by petstore login\)\n/,
    );

    const viaStdin = await run(['login'], { PETSTORE_BASE_URL: `${local}/v1` }, `${viewer.token}\n`);
    assert.equal(viaStdin.code, 0, viaStdin.stderr);
    assert.match(viaStdin.stdout, /1 project \(acme\)/);
    assert.deepEqual(Object.keys((await logins()).tokens), [`${local}/manage/v1`], 'replaced, not added');
    assert.equal((await logins()).tokens[`${local}/manage/v1`]!.token, viewer.token);
    const out = await run(['logout', '--base-url', v6]);
    assert.equal(out.stdout, `logged out of ${v6}/manage/v1\n`);
    assert.equal(existsSync(file), false, 'the file goes with its last login');
    const again = await run(['login', '--token', owner.token]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('projects list and get → the tables of the database mode, and the mode line on stderr', async () => {
    const list = await run(['projects', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(
      list.stderr,
      `petstore: management API at ${origin}/manage/v1 as token ${owner.token.slice(0, 10)}… (saved by petstore login)\n`,
    );
    assert.match(list.stdout, /^SLUG +PLAN +LIMITS +CREATED +NAME\nacme +free .*Project acme\nbeta /);
    const paged = await run(['projects', 'list', '--limit', '1', '--json']);
    assert.deepEqual(
      (JSON.parse(paged.stdout) as Json[]).map((project) => project.slug),
      ['acme'],
    );
    assert.match(paged.stderr, /more: petstore projects list --cursor \S+ \(or --all\)/);
    const get = await run(['projects', 'get', 'beta', '--json']);
    assert.equal((JSON.parse(get.stdout) as Json).role, 'owner');
    const missing = await run(['projects', 'get', 'nope']);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /404 not_found/);
  });

  it('keys create with expiry and own limits, roll, revoke: the secret alone on the last line, and it works', async () => {
    const created = await run([
      'keys',
      'create',
      '--project',
      'acme',
      '--label',
      'ci',
      '--expires-in-days',
      '3',
      '--per-minute',
      '5',
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(
      created.stdout,
      /^created key_\S+ \(project acme, plan free, own limits 5 a minute, environment test, label "ci", expires \d{4}-/,
    );
    const secret = lastLine(created.stdout);
    const pets = await app.request({ url: '/v1/pets', key: secret });
    assert.equal(pets.status, 200);
    assert.equal(pets.headers['x-ratelimit-limit'], '5');

    const json = await run(['keys', 'create', '--project', 'acme', '--expires-in-days', '1', '--json']);
    const record = JSON.parse(json.stdout) as Json;
    assert.equal(record.project, 'acme');
    assert.ok(Math.abs((record.expiresAt as number) - Date.now() - 86_400_000) < 60_000);

    const id = /^created (\S+)/.exec(created.stdout)![1]!;
    const rolled = await run(['keys', 'roll', id, '--project', 'acme', '--overlap-seconds', '60']);
    assert.equal(rolled.code, 0, rolled.stderr);
    assert.match(rolled.stdout, new RegExp(`^rolled ${id} to key_\\S+ \\(${id} works until `));
    const next = lastLine(rolled.stdout);
    assert.notEqual(next, secret);
    assert.equal((await app.request({ url: '/v1/pets', key: next })).status, 200);
    const nextId = /to (key_\S+)/.exec(rolled.stdout)![1]!;
    const revoked = await run(['keys', 'revoke', nextId, '--project', 'acme']);
    assert.equal(revoked.stdout, `revoked ${nextId}\n`);
    assert.equal((await app.request({ url: '/v1/pets', key: next })).status, 401);
    const again = await run(['keys', 'roll', id, '--project', 'acme']);
    assert.equal(again.code, 6, 'a conflict');
    assert.match(again.stderr, /409 conflict: .*cannot be rolled/);
  });

  it('keys list pages with --limit and --cursor, and --all prints every key once', async () => {
    for (let n = 0; n < 3; n++) await run(['keys', 'create', '--project', 'beta', '--label', `b${n}`]);
    const ids = (stdout: string) =>
      stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(' ', 1)[0]!);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await run([
        'keys',
        'list',
        '--project',
        'beta',
        '--limit',
        '2',
        ...(cursor ? ['--cursor', cursor] : []),
      ]);
      assert.equal(page.code, 0, page.stderr);
      assert.match(page.stdout, /^ID +ENV +PLAN +LABEL +CREATED +LAST USED +EXPIRES +STATE\n/);
      seen.push(...ids(page.stdout));
      cursor = /--cursor (\S+)/.exec(page.stderr)?.[1];
    } while (cursor);
    assert.equal(seen.length, 3);
    const all = await run(['keys', 'list', '--project', 'beta', '--all', '--limit', '1', '--json']);
    assert.deepEqual(
      (JSON.parse(all.stdout) as Json[]).map((key) => key.id),
      seen,
    );
    const noProject = await run(['keys', 'list']);
    assert.equal(noProject.code, 2);
    assert.match(
      noProject.stderr,
      /^petstore: keys list without --project \(--project <slug> reaches a project's keys through the API\) runs on the server's database alone/,
    );
  });

  it('logs --all streams the NDJSON export: every request once; a page and its cursor otherwise', async () => {
    const created = await run(['keys', 'create', '--project', 'beta', '--label', 'logged']);
    const secret = lastLine(created.stdout);
    for (let i = 0; i < 5; i++)
      await app.request({ url: i === 0 ? '/v1/pets/424242' : '/v1/pets', key: secret });
    const all = await run(['logs', '--project', 'beta', '--all', '--json']);
    assert.equal(all.code, 0, all.stderr);
    const rows = JSON.parse(all.stdout) as Json[];
    assert.equal(rows.length, 5);
    assert.deepEqual(Object.keys(rows[0]!).slice(0, 4), ['id', 'at', 'requestId', 'keyId']);
    const lines = await run(['logs', '--project', 'beta', '--all', '--ndjson']);
    assert.equal(lines.code, 0, lines.stderr);
    assert.deepEqual(
      lines.stdout
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as Json),
      rows,
      'the same objects, one a line',
    );
    assert.ok(lines.stdout.endsWith('}\n'));
    const page = await run(['logs', '--project', 'beta', '--limit', '3']);
    assert.equal(page.stdout.trimEnd().split('\n').length, 4);
    const cursor = /--cursor (\S+)/.exec(page.stderr)![1]!;
    const rest = await run(['logs', '--project', 'beta', '--cursor', cursor, '--json']);
    assert.equal((JSON.parse(rest.stdout) as Json[]).length, 2);
    const refused = await run(['logs', '--project', 'beta', '--status', '4xx', '--json']);
    assert.deepEqual(
      (JSON.parse(refused.stdout) as Json[]).map((row) => row.status),
      [404],
    );
  });

  it('audit and usage: the project trail (key_created, key_rolled, key_revoked) and its counts', async () => {
    const audit = await run(['audit', '--project', 'acme', '--all', '--limit', '2', '--json']);
    assert.equal(audit.code, 0, audit.stderr);
    const actions = (JSON.parse(audit.stdout) as Json[]).map((event) => event.action);
    for (const action of ['key_created', 'key_rolled', 'key_revoked'])
      assert.ok(actions.includes(action), action);
    const usage = await run(['usage', '--project', 'beta', '--json']);
    assert.equal(usage.code, 0, usage.stderr);
    const { period, data } = JSON.parse(usage.stdout) as { period: string; data: Json[] };
    assert.equal(period, 'hour');
    assert.equal(
      data.reduce((sum, row) => sum + (row.total as number), 0),
      5,
    );
    const table = await run(['usage', '--project', 'beta']);
    assert.match(table.stdout, /^START +TOTAL +OK +4XX +429 +5XX +P50 MS +P99 MS\n/);
  });

  it('PETSTORE_ACCESS_TOKEN wins over the saved login: a read token of a viewer is refused changes, exit 5', async () => {
    const env = { PETSTORE_ACCESS_TOKEN: viewer.token };
    const list = await run(['keys', 'list', '--project', 'acme'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /as token ps_at_\S+… \(PETSTORE_ACCESS_TOKEN\)/);
    const create = await run(['keys', 'create', '--project', 'acme'], env);
    assert.equal(create.code, 5, 'not allowed');
    assert.match(create.stderr, /403 insufficient_scope: this access token may only read/);
    assert.equal(create.stdout, '');
    const other = await run(['projects', 'get', 'beta'], env);
    assert.equal(other.code, 3, 'the viewer token does not reach beta');
  });

  it('operator-only commands are refused before anything is sent; nothing was written in the directory', async () => {
    for (const args of [
      ['keys', 'create', '--plan', 'free'],
      ['keys', 'unban', 'key_x'],
      ['projects', 'set-plan', 'acme', '--plan', 'pro'],
    ]) {
      const result = await run(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(
        result.stderr,
        /^petstore: .* runs on the server's database alone \(the management API does not offer it\), and PETSTORE_BASE_URL names the management API: nothing was sent; on the server, pass --database URL/,
      );
    }
    assert.deepEqual(await readdir(dir), ['config']);
  });
});
