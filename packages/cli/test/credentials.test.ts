import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { loginKey } from '../src/api-address.ts';
import { forgetToken, savedToken, saveToken } from '../src/credentials.ts';
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

describe('one login per address: loginKey', () => {
  const loopback = fc.constantFrom(
    'localhost',
    'LocalHost',
    'localhost.',
    '127.0.0.1',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
  );
  const tail = fc.constantFrom('', '/', '/v1', '/v1/', '/manage/v1', '/manage/v1/', '//');
  const port = fc.integer({ min: 1, max: 65_535 });

  it('every spelling of loopback, with or without /v1 or /manage/v1 and trailing slashes → one login per scheme and port', () => {
    fc.assert(
      fc.property(fc.constantFrom('http', 'HTTP', 'https'), loopback, port, tail, (scheme, host, p, path) => {
        const expected = `${scheme.toLowerCase()}://localhost${
          (scheme.toLowerCase() === 'http' && p === 80) || (scheme === 'https' && p === 443) ? '' : `:${p}`
        }/manage/v1`;
        assert.equal(loginKey(`${scheme}://${host}:${p}${path}`), expected);
      }),
    );
  });

  it('another port, scheme, host or root path → another login', () => {
    fc.assert(
      fc.property(loopback, port, port, tail, (host, a, b, path) => {
        fc.pre(a !== b);
        assert.notEqual(loginKey(`http://${host}:${a}${path}`), loginKey(`http://${host}:${b}${path}`));
        assert.notEqual(loginKey(`http://${host}:${a}${path}`), loginKey(`https://${host}:${a}${path}`));
        assert.notEqual(loginKey(`http://${host}:${a}${path}`), loginKey(`http://127.0.0.2:${a}${path}`));
        assert.notEqual(loginKey(`http://${host}:${a}/v1`), loginKey(`http://${host}:${a}/staging/v1`));
      }),
    );
  });

  it('other hosts: case, a trailing dot and the default port do not matter', () => {
    assert.equal(loginKey('https://API.Example.com.:443/v1'), 'https://api.example.com/manage/v1');
    assert.equal(
      loginKey('https://api.example.com/petstore/v1/'),
      'https://api.example.com/petstore/manage/v1',
    );
  });

  it('a login saved under an older spelling is found, replaced and forgotten by any other', async () => {
    const config = mkdtempSync(join(tmpdir(), 'petstore-logins-'));
    try {
      const file = join(config, 'petstore', 'credentials.json');
      mkdirSync(join(config, 'petstore'));
      const other = { token: 'ps_at_other', savedAt: '2026-01-01T00:00:00.000Z' };
      writeFileSync(
        file,
        JSON.stringify({
          tokens: {
            'http://127.0.0.1:8080/manage/v1': { token: 'ps_at_old', savedAt: '2026-01-01T00:00:00.000Z' },
            'https://api.example.com/manage/v1': other,
          },
        }),
      );
      const io = {
        stdout: captured(),
        stderr: captured(),
        env: { XDG_CONFIG_HOME: config },
        cwd: config,
      } as unknown as CliIo;
      assert.equal((await savedToken(io, 'http://[::1]:8080/manage/v1'))?.token, 'ps_at_old');
      await saveToken(io, 'http://localhost:8080/manage/v1', 'ps_at_new', new Date(0));
      const { tokens } = JSON.parse(readFileSync(file, 'utf8')) as {
        tokens: Record<string, { token: string }>;
      };
      assert.deepEqual(Object.keys(tokens).sort(), [
        'http://localhost:8080/manage/v1',
        'https://api.example.com/manage/v1',
      ]);
      assert.equal((await savedToken(io, 'http://127.0.0.1:8080/manage/v1'))?.token, 'ps_at_new');
      assert.equal(await forgetToken(io, 'http://127.0.0.1:8080/manage/v1'), true);
      assert.equal(await savedToken(io, 'http://localhost:8080/manage/v1'), undefined);
      assert.deepEqual(
        (await savedToken(io, 'https://api.example.com/v1'))?.token,
        other.token,
        'the other address keeps its own',
      );
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });
});
