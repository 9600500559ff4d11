import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseLogLine, ROOT, watchServe } from '../../server/test/serve-process.ts';

/** Whether something still accepts connections on the port. */
async function accepts(port: number): Promise<boolean> {
  const socket = net.connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

/** Whether the process still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A supervisor, a shell's `kill` or docs/tls.md's clean-up signals npm, not the node it started. npm
 * forwards SIGTERM and SIGINT to its script's process, which must therefore be the server itself: a
 * `sh -c` in between died of the signal and left the server holding its port.
 */
describe('npm start and npm run petstore -- serve stopped by npm’s pid', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-npm-signal-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const cases = [
    { npm: ['start'], signal: 'SIGTERM' },
    { npm: ['run', 'petstore', '--', 'serve'], signal: 'SIGINT' },
  ] as const;
  for (const { npm, signal } of cases) {
    it(`npm ${npm.join(' ')}, ${signal} to npm → the server shuts down gracefully and frees its port`, async () => {
      const env = {
        ...process.env,
        PORT: '0',
        DATABASE_URL: join(dir, `${npm[0]}.db`),
        LOG_LEVEL: 'info',
      };
      const server = watchServe(
        spawn('npm', [...npm], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      let nodePid: number | undefined;
      try {
        const url = await server.listening();
        const port = Number(new URL(url).port);
        const line = await server.waitForLine(
          (candidate) => parseLogLine(candidate)?.msg === 'petstore listening',
        );
        nodePid = Number(parseLogLine(line)!.pid);
        assert.ok(await accepts(port));

        server.child.kill(signal);
        assert.equal(await server.exited, 0, server.stderr());
        const messages = server.lines.map((candidate) => parseLogLine(candidate));
        assert.ok(messages.some((entry) => entry?.msg === 'shutting down' && entry.signal === signal));
        assert.ok(messages.some((entry) => entry?.msg === 'shut down'));
        assert.equal(alive(nodePid), false, 'the server process is gone');
        assert.equal(await accepts(port), false, 'the port is free');
      } finally {
        await server.stop();
        // A server left behind by a failing run must not outlive the test.
        if (nodePid !== undefined && alive(nodePid)) process.kill(nodePid, 'SIGKILL');
      }
    });
  }
});
