import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The Node flags between `node` and the script in a command line. */
function flagsOf(command: string[]): string[] {
  const script = command.findIndex((word) => word.endsWith('.js') || word.endsWith('.ts'));
  return command.slice(1, script);
}

const { scripts } = JSON.parse(read('package.json')) as { scripts: { start: string; petstore: string } };
/** The words of an npm script that `exec`s its command (npm's signals then reach node, not a shell). */
function execWords(script: string): string[] {
  const words = script.trim().split(/\s+/);
  assert.equal(
    words[0],
    'exec',
    `${script} must exec node: npm signals its shell, which does not pass it on`,
  );
  return words.slice(1);
}
const startFlags = flagsOf(execWords(scripts.start));

test('npm start runs the CLI with the memory flag', () => {
  assert.deepEqual(startFlags, ['--max-semi-space-size=8']);
});

test('npm run petstore -- … gets the same Node flags as npm start', () => {
  assert.deepEqual(flagsOf(execWords(scripts.petstore)), startFlags);
});

test('the CLI run as a program (bin/petstore.js) gets the same Node flags as npm start', () => {
  const shebang = read('packages/cli/bin/petstore.js').split('\n')[0]!;
  const words = shebang.replace(/^#!\/usr\/bin\/env -S /, '').split(/\s+/);
  assert.deepEqual(flagsOf([...words, 'petstore.js']), startFlags);
});

test('the container image gets the same Node flags as npm start', () => {
  const cmd = read('Dockerfile')
    .split('\n')
    .find((line) => line.startsWith('CMD '))!;
  assert.deepEqual(flagsOf(JSON.parse(cmd.slice(4)) as string[]), startFlags);
});

test('the shebang line works: the bin runs as a program', () => {
  const bin = new URL('packages/cli/bin/petstore.js', root).pathname;
  // The pinned Node first on PATH, as npm puts it for scripts and npx.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` };
  const help = execFileSync(bin, ['--help'], { env, encoding: 'utf8' });
  assert.match(help, /petstore serve/);
});
