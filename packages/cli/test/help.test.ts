import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { COMMANDS } from '../src/main.ts';
import { cli } from './run-cli.ts';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs', 'cli.md');

/** `keys set-limits`, or `domains verify|primary|remove`: the action named after its group. */
const names = (text: string, group: string, action: string): boolean =>
  new RegExp(`(^|[\\s|])${group} ([a-z-]+\\|)*${action}(?=[\\s|]|$)`, 'm').test(text);

/** The synopsis in docs/cli.md: its first code block. */
async function docsSynopsis(): Promise<string> {
  const text = await readFile(DOCS, 'utf8');
  return /```\n([\s\S]*?)```/.exec(text)![1]!;
}

describe('petstore --help and docs/cli.md name every command', () => {
  it('every command group, and every action of each (as its own --help lists them), is in petstore --help and docs/cli.md', async () => {
    const help = (await cli(['--help'], { cwd: tmpdir() })).stdout;
    const synopsis = await docsSynopsis();
    for (const group of Object.keys(COMMANDS)) {
      const own = await cli([group, '--help'], { cwd: tmpdir() });
      assert.equal(own.code, 0, `${group} --help: ${own.stderr}`);
      assert.match(help, new RegExp(`petstore ${group}\\b`), `${group} in petstore --help`);
      assert.match(synopsis, new RegExp(`petstore ${group}\\b`), `${group} in docs/cli.md`);
      const actions = new RegExp(`^petstore ${group} <([a-z|-]+)>`).exec(own.stdout)?.[1]?.split('|') ?? [];
      for (const action of actions) {
        assert.ok(names(help, group, action), `${group} ${action} in petstore --help`);
        assert.ok(names(synopsis, group, action), `${group} ${action} in docs/cli.md`);
      }
    }
  });
});
