import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServeProcess, spawnServe } from '../../server/test/serve-process.ts';
import { type CliResult, runCli } from './run-cli.ts';

/**
 * The other CLI tests call `main(argv, io)` in-process; these run the real program once per command
 * group, as an operator does: the bin, its Node flags, its exit status and its streams.
 */
describe('petstore as a process (one smoke test per command group)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: ServeProcess | undefined;
  const run = (args: string[], input?: string) => runCli(args, { cwd: dir, env, input });
  const ok = (result: CliResult) => assert.equal(result.code, 0, result.stderr);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-smoke-'));
    env = { DATABASE_URL: join(dir, 'petstore.db') };
  });

  after(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('migrate and projects create → exit 0 and the project on standard output', async () => {
    ok(await run(['migrate']));
    const created = await run(['projects', 'create', '--name', 'Acme', '--slug', 'acme', '--plan', 'pro']);
    ok(created);
    assert.match(created.stdout, /created project acme/);
  });

  it('keys create --project → the key alone on the last line', async () => {
    const created = await run(['keys', 'create', '--project', 'acme']);
    ok(created);
    const key = created.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(key, /^ps_test_/);
    env = { ...env, PETSTORE_API_KEY: key };
  });

  it('admin create → the password read from standard input', async () => {
    const created = await run(['admin', 'create', '--email', 'ann@example.com'], 'a long passphrase 7\n');
    ok(created);
    assert.match(created.stdout, /created account ann@example\.com/);
  });

  it('domains list → the project has none yet', async () => {
    const listed = await run(['domains', 'list', '--project', 'acme']);
    ok(listed);
    assert.match(listed.stdout, /acme has no custom domain/);
  });

  it('serve, then pets create and pets list against it; SIGTERM → exit 0', async () => {
    server = spawnServe(env, ['--port', '0']);
    const url = await server.listening();
    env = { ...env, PETSTORE_BASE_URL: url };
    ok(await run(['pets', 'create', '--name', 'Rex', '--category-id', '3']));
    const listed = await run(['pets', 'list', '--json']);
    ok(listed);
    assert.match(listed.stdout, /"name":"Rex"/);
    await server.stop();
    assert.equal(await server.exited, 0);
  });
});
