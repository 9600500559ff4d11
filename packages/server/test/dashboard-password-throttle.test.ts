import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invite } from '../src/features/members/invitation-mail.ts';
import { THROTTLE_POLICIES } from '../src/features/identity/sign-in-throttle.ts';
import { normalizeEmail } from '../src/features/identity/email.ts';
import type { StrengthPool } from '../src/features/identity/strength-pool.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const WEAK = '1'.repeat(1_000);

/**
 * What is tested here is the counting of refusals, not zxcvbn (password-bounds.test.ts and
 * passwords.test.ts judge real passwords): a run of ones is guessable, anything else is not. The real
 * check of WEAK’s 64-digit prefix costs about a third of a second of CPU, and the suite refuses it 22 times.
 */
/** How many new passwords the app asked `strength` about: the doors use the checker they are given. */
let asked = 0;
const strength: Pick<StrengthPool, 'check'> = {
  check: async (password) => {
    asked++;
    const weak = /^1+$/.test(password);
    return {
      ran: true,
      strength: weak
        ? { score: 0, warning: 'Repeated characters like "aaa" are easy to guess.' }
        : { score: 4, warning: undefined },
    };
  },
};

describe('refused new passwords are throttled per invitation link, per account and per client', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp({ trustProxy: true, passwordStrength: strength });
    await addAccount(app, 'owner@example.com', PASSWORD, ['acme']);
  });
  after(() => app.close());

  const link = async (email: string) => {
    const project = (await app.storage.projects.bySlug('acme'))!;
    const { token } = await invite(app.storage.projects, {
      project,
      email: normalizeEmail(email)!,
      role: 'viewer',
      invitedBy: null,
      now: app.clock.now(),
    });
    return token;
  };

  const post = async (token: string, password: string, address: string, repeat = password) => {
    const browser = new Browser(app);
    const from = { 'x-forwarded-for': address };
    const page = await browser.get(`/dashboard/invitation?token=${token}`, from);
    return browser.post('/dashboard/invitation', { _csrf: csrfOf(page), token, password, repeat }, from);
  };

  it('POST /dashboard/invitation → 429 with Retry-After once one link had 5 refused posts, from any address; the link still works after the wait', async () => {
    const token = await link('first@example.com');
    const { free } = THROTTLE_POLICIES.invitationLink;
    const askedBefore = asked;
    for (let i = 0; i < free; i++) {
      const refused = await post(token, WEAK, `198.51.100.${i}`);
      assert.equal(refused.status, 400);
      assert.match(refused.body, /too easy to guess/);
    }
    assert.equal(asked - askedBefore, free);
    const differ = await post(token, PASSWORD, '198.51.100.50', 'something else entirely');
    assert.equal(differ.status, 400, 'the sixth refusal is still answered');
    const waiting = await post(token, 'quiet meadow lantern 42', '198.51.100.51');
    assert.equal(waiting.status, 429, 'then the link waits, whatever the address');
    assert.equal(waiting.headers['retry-after'], '1');
    app.clock.advance(1_000);
    const joined = await post(token, 'quiet meadow lantern 42', '198.51.100.52');
    assert.equal(joined.status, 303);
  });

  it('POST /dashboard/invitation → one client refused 10 times on as many links waits on a fresh link too', async () => {
    const address = '203.0.113.7';
    const { free } = THROTTLE_POLICIES.newPasswordAddress;
    for (let i = 0; i <= free; i++) {
      assert.equal((await post(await link(`many${i}@example.com`), WEAK, address)).status, 400);
    }
    const fresh = await link('fresh@example.com');
    const waiting = await post(fresh, 'quiet meadow lantern 42', address);
    assert.equal(waiting.status, 429);
    assert.ok(Number(waiting.headers['retry-after']) >= 1);
    assert.equal(
      (await post(fresh, 'quiet meadow lantern 42', '203.0.113.8')).status,
      303,
      'others are not held',
    );
  });

  it('POST /dashboard/account/password → refused new passwords count against the account: the sixth waits', async () => {
    await addAccount(app, 'viewer@example.com', PASSWORD, ['acme']);
    const viewer = new Browser(app);
    await viewer.signIn('viewer@example.com', PASSWORD);
    const change = async (password: string) => {
      const page = await viewer.get('/dashboard/account');
      await viewer.post('/dashboard/account/password', {
        _csrf: csrfOf(page),
        current: PASSWORD,
        password,
        repeat: password,
      });
      return (await viewer.get('/dashboard/account')).body;
    };
    const askedBefore = asked;
    for (let i = 0; i < THROTTLE_POLICIES.passwordChange.free + 1; i++) {
      assert.match(await change(WEAK), /too easy to guess/);
    }
    assert.equal(asked - askedBefore, THROTTLE_POLICIES.passwordChange.free + 1);
    assert.match(
      await change('quiet meadow lantern 42'),
      /Too many sign-in attempts\. Try again in 1 second/,
    );
  });
});
