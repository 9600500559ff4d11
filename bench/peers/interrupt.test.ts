import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = join(import.meta.dirname, '..', '..');

/** The run's temporary directories under `dir`. */
const workDirs = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('petstore-peers-'));

/** Resolves once the run has made its temporary directory (polled: there is no event to wait for). */
async function workDirMade(dir: string, child: ChildProcess): Promise<void> {
  while (workDirs(dir).length === 0) {
    if (child.exitCode !== null)
      throw new Error(`the run ended (${child.exitCode}) before making its directory`);
    await sleep(50);
  }
}

/** An interrupted `bench:peers` stops its servers and removes its temporary directory, whatever the signal. */
describe('bench:peers interrupted', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-peers-interrupt-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const runs = [
    { how: 'npm run bench:peers, SIGTERM to npm', npm: true, signal: 'SIGTERM', status: 143 },
    { how: 'node bench/peers/run.ts, SIGHUP (a closed terminal)', npm: false, signal: 'SIGHUP', status: 129 },
  ] as const;
  for (const { how, npm, signal, status } of runs) {
    it(`${how} → exits ${status} and leaves no temporary directory`, async () => {
      const args = ['--quick', '--dir', dir];
      const child = npm
        ? spawn('npm', ['run', '-s', 'bench:peers', '--', ...args], {
            cwd: ROOT,
            stdio: ['ignore', 'ignore', 'pipe'],
          })
        : spawn(process.execPath, ['bench/peers/run.ts', ...args], {
            cwd: ROOT,
            stdio: ['ignore', 'ignore', 'pipe'],
          });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      const exited = once(child, 'exit');
      try {
        await workDirMade(dir, child);
        child.kill(signal);
        const [code] = (await exited) as [number | null];
        assert.equal(code, status, stderr);
        assert.deepEqual(workDirs(dir), [], stderr);
        assert.match(stderr, new RegExp(`bench:peers: ${signal}, stopping`));
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });
  }
});
