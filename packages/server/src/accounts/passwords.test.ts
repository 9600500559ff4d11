import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('passwords', () => {
  it('hashPassword → scrypt$N$r$p$salt$hash, a new salt every time; verifyPassword accepts only the password', async () => {
    const first = await hashPassword('correct horse battery', FAST);
    const second = await hashPassword('correct horse battery', FAST);
    assert.match(first, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(first, second);
    assert.deepEqual(await verifyPassword('correct horse battery', first, FAST), { ok: true, rehash: false });
    assert.deepEqual(await verifyPassword('correct horse batterY', first, FAST), {
      ok: false,
      rehash: false,
    });
    assert.deepEqual(await verifyPassword('', first, FAST), { ok: false, rehash: false });
  });

  it('verifyPassword → the same text in another Unicode normal form matches (NFC)', async () => {
    const hash = await hashPassword('caf\u00e9 au lait!', FAST);
    assert.equal((await verifyPassword('cafe\u0301 au lait!', hash, FAST)).ok, true);
  });

  it('verifyPassword → a hash made with other parameters still verifies and asks for a rehash', async () => {
    const old = await hashPassword('correct horse battery', { N: 2 ** 9, r: 8, p: 1 });
    assert.deepEqual(await verifyPassword('correct horse battery', old, FAST), { ok: true, rehash: true });
  });

  it('decoyHash → the shape and parameters of a real hash, a new one every time, matched by no password', async () => {
    const decoy = decoyHash(FAST);
    assert.match(decoy, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(decoyHash(FAST), decoy);
    for (const password of ['', 'correct horse battery', decoy]) {
      assert.deepEqual(await verifyPassword(password, decoy, FAST), { ok: false, rehash: false });
    }
  });

  it('verifyPassword → a malformed hash is a refusal, not an error', async () => {
    for (const hash of ['', 'plain', 'scrypt$x$8$1$a$b', 'bcrypt$2b$10$abc']) {
      assert.deepEqual(await verifyPassword('anything', hash, FAST), { ok: false, rehash: false }, hash);
    }
  });

  it('passwordProblem → at least 12 characters (code points), at most 1,024', () => {
    assert.match(passwordProblem('short')!, /at least 12/);
    assert.equal(passwordProblem('🐈🐈🐈🐈🐈🐈🐈🐈🐈🐈🐈🐈'), undefined);
    assert.match(passwordProblem('x'.repeat(1_025))!, /at most 1024|at most 1,024/);
  });
});
