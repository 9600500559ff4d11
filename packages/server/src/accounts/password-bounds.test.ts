import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MAX_PASSWORD_BYTES, passwordProblem } from './passwords.ts';
import {
  boundedInputs,
  MAX_USER_INPUTS,
  loadStrengthCheck,
  STRENGTH_PREFIX_CHARACTERS,
  strengthPrefix,
} from './password-strength.ts';
import { createStrengthPool, type StrengthPool } from './strength-pool.ts';

/** The worst inputs found for zxcvbn: each costs seconds of CPU at full length. */
const WORST: Record<string, string> = {
  'digit run': Array.from({ length: MAX_PASSWORD_BYTES }, (_, i) => String((i * 7919) % 10)).join(''),
  'one digit repeated': '1'.repeat(MAX_PASSWORD_BYTES),
  'repeated dates': '19701231'.repeat(MAX_PASSWORD_BYTES / 8),
  'repeated l33t word': 'p@ssw0rd'.repeat(128),
  'dictionary words': 'passwordqwertydragonmonkey'.repeat(39),
  'keyboard walk': 'qwertyuiopasdfghjkl;zxcvbnm,./'.repeat(34),
  'accented letters': 'é'.repeat(MAX_PASSWORD_BYTES / 2),
  emoji: '🐈'.repeat(MAX_PASSWORD_BYTES / 4),
  'combining marks': `e${'\u0301'.repeat(MAX_PASSWORD_BYTES / 2 - 1)}`,
  'mixed scripts': 'аbсdеfghіjklmnорqrstuvwxуz'.repeat(30),
};

const codePoints = (text: string) => [...text].length;

describe('password checks are bounded', () => {
  const pool = createStrengthPool();
  after(() => pool.close());

  it('strengthPrefix → the first 64 code points, never a split surrogate pair', () => {
    assert.equal(strengthPrefix('short one'), 'short one');
    assert.equal(strengthPrefix('🐈'.repeat(100)), '🐈'.repeat(STRENGTH_PREFIX_CHARACTERS));
    for (const [name, password] of Object.entries(WORST)) {
      assert.ok(Buffer.byteLength(password) <= MAX_PASSWORD_BYTES, `${name} fits the byte limit`);
      assert.equal(codePoints(strengthPrefix(password)), STRENGTH_PREFIX_CHARACTERS, name);
      assert.ok(password.startsWith(strengthPrefix(password)), name);
    }
  });

  it('boundedInputs → at most 8 inputs, each cut to the prefix', () => {
    const inputs = boundedInputs(Array.from({ length: 20 }, () => 'x'.repeat(500)));
    assert.equal(inputs.length, MAX_USER_INPUTS);
    for (const input of inputs) assert.equal(input.length, STRENGTH_PREFIX_CHARACTERS);
  });

  it('passwordProblem → the strength check is given the prefix only, for every worst input', async () => {
    const seen: { password: string; inputs: string[] }[] = [];
    const recording: Pick<StrengthPool, 'check'> = {
      check: (password, inputs, ticket) => {
        seen.push({ password, inputs });
        return pool.check(password, inputs, ticket);
      },
    };
    const email = `${'long-local-part.'.repeat(10)}x@example.com`;
    for (const [name, password] of Object.entries(WORST)) {
      const problem = await passwordProblem(password, { email, strength: recording });
      assert.doesNotMatch(problem ?? 'accepted', /bytes|too many/, name);
      const given = seen.at(-1)!;
      assert.ok(codePoints(given.password) <= STRENGTH_PREFIX_CHARACTERS, name);
      assert.ok(given.inputs.length <= MAX_USER_INPUTS, name);
      for (const input of given.inputs) assert.ok(codePoints(input) <= STRENGTH_PREFIX_CHARACTERS, name);
    }
    assert.equal(seen.length, Object.keys(WORST).length);
  });

  it('passwordProblem → over 1,024 bytes is refused before the strength check is asked', async () => {
    let asked = 0;
    const counting: Pick<StrengthPool, 'check'> = {
      check: (...args) => (asked++, pool.check(...args)),
    };
    for (const password of ['1'.repeat(1_025), 'é'.repeat(513), '🐈'.repeat(257), '9'.repeat(100_000)]) {
      assert.match((await passwordProblem(password, { strength: counting }))!, /at most 1,024 bytes/);
    }
    assert.equal(asked, 0);
  });

  it('the worker answers what the check answers in-process', async () => {
    const inProcess = await loadStrengthCheck();
    for (const password of [WORST['digit run']!, 'correct horse battery staple quokka', 'Tr0ub4dor&3xyz']) {
      const answer = await pool.check(password, ['ann@example.com']);
      assert.deepEqual(answer, { ran: true, strength: inProcess(password, ['ann@example.com']) });
    }
  });

  it('createStrengthPool → a full queue answers ran: false without asking the worker', async () => {
    const small = createStrengthPool({ concurrent: 1, waiting: 0, perLane: 1 });
    try {
      const first = small.check('correct horse battery staple', []);
      assert.deepEqual(await small.check('another horse battery staple', []), { ran: false });
      assert.equal((await first).ran, true);
    } finally {
      await small.close();
    }
  });
});
