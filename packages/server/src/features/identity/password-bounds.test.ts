import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, it } from 'node:test';
import { MAX_PASSWORD_BYTES, passwordProblem } from './passwords.ts';
import {
  boundedInputs,
  MAX_USER_INPUTS,
  STRENGTH_PREFIX_CHARACTERS,
  strengthPrefix,
} from './password-strength.ts';
import { createStrengthPool, STRENGTH_NICE, type StrengthPool } from './strength-pool.ts';
import { TEST_PASSWORD_STRENGTH } from '../../../test/password-settings.ts';

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

/** The threads of this process (Linux): id, name and nice value. */
const threads = () =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      tid,
      name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
      nice: Number(fields[16]),
    };
  });

describe('password checks are bounded', () => {
  // Production's worker at the process's priority: at the lowest, a busy machine starves these checks
  // for minutes. The test of the priority below starts a pool of production's own.
  const pool = TEST_PASSWORD_STRENGTH;

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

  it('the worker judges with zxcvbn-ts: a digit run and the email are guessable, a phrase of unrelated words is not', async () => {
    const check = (password: string, inputs: string[] = []) =>
      pool.check(strengthPrefix(password), boundedInputs(inputs));
    const weak = await check(WORST['digit run']!);
    assert.ok(weak.ran && weak.strength.score < 3, JSON.stringify(weak));
    const strong = await check('correct horse battery staple quokka');
    assert.ok(strong.ran && strong.strength.score >= 3, JSON.stringify(strong));
    const common = await check('password1234');
    assert.deepEqual(common, {
      ran: true,
      strength: { score: 1, warning: 'This is similar to a commonly used password.' },
    });
    const own = await check('quokkazanzibar2026', ['quokkazanzibar@example.com', 'quokkazanzibar']);
    assert.ok(own.ran && own.strength.score < 3, 'the user inputs reach the worker');
  });

  it(
    'the worker thread runs at the lowest priority (nice 19), the event loop at the process’s',
    { skip: !existsSync('/proc/self/task') },
    async () => {
      // Other suites of this process may have left worker threads of their own: only the new one counts.
      const before = new Set(threads().map((t) => t.tid));
      const production = createStrengthPool();
      const started = () => threads().filter((t) => t.name === 'WorkerThread' && !before.has(t.tid));
      try {
        // The thread takes its priority first thing, then loads zxcvbn-ts (a second of CPU, starved
        // for many on a busy machine at nice 19): its nice is read as soon as it shows, or once the
        // check is answered, whichever comes first.
        let answered = false;
        const checked = production.check('warm the worker up', []).finally(() => (answered = true));
        // Closing the pool below ends a check still unanswered: that rejection is expected.
        checked.catch(() => {});
        while (!answered && !started().some((t) => t.nice === STRENGTH_NICE)) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (answered) assert.equal((await checked).ran, true);
        const now = threads();
        assert.deepEqual(
          now.filter((t) => t.name === 'WorkerThread' && !before.has(t.tid)).map((t) => t.nice),
          [STRENGTH_NICE],
        );
        assert.equal(now.find((t) => t.name === 'MainThread')?.nice, getPriority());
      } finally {
        await production.close();
      }
    },
  );

  it('createStrengthPool → a full queue answers ran: false without asking the worker', async () => {
    const small = createStrengthPool({ concurrent: 1, waiting: 0, perLane: 1 }, getPriority());
    try {
      const first = small.check('correct horse battery staple', []);
      assert.deepEqual(await small.check('another horse battery staple', []), { ran: false });
      assert.equal((await first).ran, true);
    } finally {
      await small.close();
    }
  });
});
