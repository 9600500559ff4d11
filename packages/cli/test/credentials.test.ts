import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { savedToken } from '../src/credentials.ts';
import type { CliIo } from '../src/io.ts';

const captured = () => {
  let text = '';
  return { write: (chunk: string) => ((text += chunk), true), text: () => text };
};

describe('saved logins', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-credentials-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a credentials file this user may not read → no saved login, said once on stderr, never an error', async () => {
    // XDG_CONFIG_HOME names a file: its petstore/credentials.json cannot be opened (ENOTDIR), as a
    // service account meets another user's 0700 home (EACCES) that root never would in a test.
    const notADirectory = join(dir, 'config-file');
    writeFileSync(notADirectory, '');
    const stderr = captured();
    const io = {
      stdout: captured(),
      stderr,
      stdin: process.stdin,
      env: { XDG_CONFIG_HOME: notADirectory },
      cwd: dir,
    } as unknown as CliIo;
    assert.equal(await savedToken(io, 'http://127.0.0.1:8080'), undefined);
    assert.match(stderr.text(), /cannot read .*credentials\.json \(ENOTDIR\): no saved login used/);
  });

  it('a file that is not a credentials file → refused with how to fix it', async () => {
    const config = join(dir, 'xdg');
    const file = join(config, 'petstore', 'credentials.json');
    mkdirSync(join(config, 'petstore'), { recursive: true });
    writeFileSync(file, 'not json');
    const io = {
      stdout: captured(),
      stderr: captured(),
      env: { XDG_CONFIG_HOME: config },
      cwd: dir,
    } as unknown as CliIo;
    await assert.rejects(
      savedToken(io, 'http://127.0.0.1:8080'),
      /is not a credentials file; remove it and run "petstore login" again/,
    );
  });
});
