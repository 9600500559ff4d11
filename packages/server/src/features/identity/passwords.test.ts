import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_PASSWORD_STRENGTH } from '../../../test/password-settings.ts';
import {
  decoyHash,
  hashPassword,
  type PasswordContext,
  passwordProblem,
  verifyPassword,
} from './passwords.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
/** Production's strength check at the process's priority: at the lowest, a busy machine starves it. */
const problem = (password: string, context: PasswordContext = {}) =>
  passwordProblem(password, { strength: TEST_PASSWORD_STRENGTH, ...context });

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

  it('verifyPassword → a password over 4,096 bytes is refused without hashing, even the right one', async () => {
    const long = 'é'.repeat(2_049);
    const hash = await hashPassword(long, FAST);
    assert.deepEqual(await verifyPassword(long, hash, FAST), { ok: false, rehash: false });
    assert.equal(
      (await verifyPassword('é'.repeat(2_048), await hashPassword('é'.repeat(2_048), FAST), FAST)).ok,
      true,
    );
  });

  it('verifyPassword → a malformed hash is a refusal, not an error', async () => {
    for (const hash of ['', 'plain', 'scrypt$x$8$1$a$b', 'bcrypt$2b$10$abc']) {
      assert.deepEqual(await verifyPassword('anything', hash, FAST), { ok: false, rehash: false }, hash);
    }
  });

  it('passwordProblem → at least 12 characters (code points), at most 1,024 bytes of UTF-8', async () => {
    assert.match((await problem('short'))!, /at least 12/);
    assert.equal(await problem('🐈🐈🐈🐈 walks 🐈🐈🐈🐈 by night'), undefined);
    assert.match((await problem('x'.repeat(1_025)))!, /at most 1,024 bytes/);
    assert.match((await problem('🐈'.repeat(257)))!, /at most 1,024 bytes/, '257 emoji are 1,028 bytes');
  });

  it('passwordProblem → all-whitespace passwords refused, whatever the blank characters', async () => {
    for (const blank of [' '.repeat(12), '\t'.repeat(12), '\u3000'.repeat(12), ' \n'.repeat(8)]) {
      assert.equal(await problem(blank), 'the password must not be all whitespace', JSON.stringify(blank));
    }
  });

  it('passwordProblem → common and guessable passwords refused with the reason', async () => {
    const cases: [string, RegExp][] = [
      ['password1234', /too easy to guess \(this is similar to a commonly used password\)/],
      ['aaaaaaaaaaaa', /too easy to guess \(repeated characters like "aaa" are easy to guess\)/],
      ['123456789012', /too easy to guess \(this is a commonly used password\)/],
      ['qwertyuiop12', /too easy to guess/],
      ['letmeinletmein', /too easy to guess \(repeated character patterns/],
      ['Password123!', /too easy to guess/],
    ];
    for (const [password, reason] of cases) {
      assert.match((await problem(password)) ?? 'accepted', reason, password);
    }
  });

  it('passwordProblem → the email and its parts count as guessable', async () => {
    assert.equal(await problem('quokkazanzibar2026'), undefined);
    assert.match(
      (await problem('quokkazanzibar2026', { email: 'quokkazanzibar@example.com' })) ?? 'accepted',
      /too easy to guess \(there should not be any personal/,
    );
  });

  it('passwordProblem → long phrases of unrelated words pass', async () => {
    for (const password of ['correct horse battery staple', 'a-new-long-passphrase', 'Tr0ub4dor&3xyz']) {
      assert.equal(await problem(password), undefined, password);
    }
  });
});
