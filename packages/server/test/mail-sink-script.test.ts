import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './serve-process.ts';

const SCRIPT = join(ROOT, 'scripts', 'mail-sink.ts');

/** `npm run mail-sink -- <args>` as npm runs it: the script, by the Node running the tests. */
function mailSink(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('npm run mail-sink: one line and an exit status for what stops it, never a stack trace', () => {
  it('a port already taken → exit 1, one line naming the port and --port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const result = await mailSink(['--port', String(port)]);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(
        result.stderr,
        `mail-sink: port ${port} on 127.0.0.1 is taken (another mail-sink?): stop that one, or pass --port N\n`,
      );
      assert.equal(result.stdout, '');
    } finally {
      taken.close();
    }
  });

  it('a port that is not one, or an unknown option → exit 2, one line with the usage', async () => {
    for (const args of [['--port', 'smtp'], ['--port', '70000'], ['--bogus']]) {
      const result = await mailSink(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^mail-sink: .*; usage: npm run -s mail-sink \[-- --port N\]\n$/);
    }
  });

  it('a free port → the SMTP URL to use, and it keeps listening', async () => {
    const child = spawn(process.execPath, [SCRIPT, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      assert.match(line.toString(), /^listening: PETSTORE_SMTP_URL=smtp:\/\/127\.0\.0\.1:\d+\n$/);
      assert.equal(child.exitCode, null);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});
