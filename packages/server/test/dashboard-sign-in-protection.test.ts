import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createHashingGate } from '../src/features/identity/hashing-gate.ts';
import { THROTTLE_POLICIES } from '../src/features/identity/sign-in-throttle.ts';
import { addAccount, Browser, csrfOf, setCookies } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A sign-in attempt from an address of its own (the app trusts X-Forwarded-For here), as a fresh browser. */
async function attempt(app: TestApp, email: string, password: string, address: string) {
  const browser = new Browser(app);
  const from = { 'x-forwarded-for': address };
  const form = await browser.get('/dashboard/sign-in', from);
  return browser.post('/dashboard/sign-in', { _csrf: csrfOf(form), email, password }, from);
}

/** The JSON lines logged since `from` whose `event` starts with `prefix`. */
const events = (lines: string[], prefix: string, from = 0) =>
  lines
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.event === 'string' && line.event.startsWith(prefix));

describe('dashboard sign-in that attackers cannot turn against the owner', () => {
  let app: TestApp;
  const lines: string[] = [];
  let n = 0;
  let email: string;
  before(async () => {
    app = await makeTestApp({ trustProxy: true, logLines: lines });
  });
  after(() => app.close());
  beforeEach(async () => {
    email = `owner${++n}@example.com`;
    await addAccount(app, email, PASSWORD, ['acme']);
  });

  it('POST /dashboard/sign-in → a signed device cookie: HttpOnly, SameSite=Lax, Path=/dashboard, kept a year', async () => {
    const browser = new Browser(app);
    await browser.signIn(email, PASSWORD);
    assert.match(
      browser.cookies.get('petstore_device') ?? '',
      /^v1\.acc_[\w-]+\.[0-9a-z]+\.[\w-]{22}\.[\w-]{43}$/,
    );
    const form = await browser.get('/dashboard/sign-in');
    assert.equal(form.status, 303, 'signed in already');
  });

  it('POST /dashboard/sign-in → a device that signed in before signs in with 50 failures from other addresses behind it; an unknown browser waits', async () => {
    const owner = new Browser(app);
    await owner.signIn(email, PASSWORD);
    const home = await owner.get('/dashboard');
    await owner.post('/dashboard/sign-out', { _csrf: csrfOf(home) });
    const statuses = new Set<number>();
    for (let i = 0; i < 50; i++) {
      statuses.add((await attempt(app, email, `guess number ${i}`, `203.0.113.${i}`)).status);
    }
    assert.deepEqual([...statuses].sort(), [400, 429]);
    const stranger = await attempt(app, email, PASSWORD, '198.51.100.7');
    assert.equal(stranger.status, 429, 'an unknown device with the right password waits');
    assert.ok(Number(stranger.headers['retry-after']) >= 1);
    const form = await owner.get('/dashboard/sign-in');
    const back = await owner.post('/dashboard/sign-in', { _csrf: csrfOf(form), email, password: PASSWORD });
    assert.equal(back.status, 303, back.body);
    assert.equal(back.headers.location, '/dashboard');
  });

  it('POST /dashboard/sign-in → unknown devices wait longer with each failure, never a day: the wait ends', async () => {
    const { free, maxWaitMs } = THROTTLE_POLICIES.email;
    for (let i = 0; i <= free; i++) await attempt(app, email, `guess number ${i}`, `203.0.113.${i}`);
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      const waiting = await attempt(app, email, PASSWORD, '198.51.100.1');
      assert.equal(waiting.status, 429);
      waits.push(Number(waiting.headers['retry-after']));
      app.clock.advance(waits.at(-1)! * 1_000);
      assert.equal((await attempt(app, email, `again ${i} wrong`, `203.0.114.${i}`)).status, 400);
    }
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900]);
    assert.ok(Math.max(...waits) * 1_000 <= maxWaitMs);
    app.clock.advance(maxWaitMs);
    assert.equal((await attempt(app, email, PASSWORD, '198.51.100.1')).status, 303);
  });

  it('POST /dashboard/sign-in → 30 concurrent wrong passwords from 30 addresses fill the password checks; the known device signs in, not 429', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 16, perLane: 2 });
    const busy = await makeTestApp({ trustProxy: true, hashingGate: gate });
    try {
      await addAccount(busy, 'ann@example.com', PASSWORD, ['acme']);
      const owner = new Browser(busy);
      await owner.signIn('ann@example.com', PASSWORD);
      owner.cookies.delete('petstore_session');
      let release!: () => void;
      const held = gate.run({ lane: 'test', priority: false }, () => new Promise<void>((r) => (release = r)));
      let refused = 0;
      const attackers = Array.from({ length: 30 }, (_, i) =>
        attempt(busy, 'ann@example.com', `guess number ${i}`, `203.0.113.${i}`).then((response) => {
          if (response.status === 429) refused++;
          return response.status;
        }),
      );
      while (gate.load().waiting < 16 || refused < 14) await turn();
      const form = await owner.get('/dashboard/sign-in');
      const signingIn = owner.post('/dashboard/sign-in', {
        _csrf: csrfOf(form),
        email: 'ann@example.com',
        password: PASSWORD,
      });
      let answered = false;
      void signingIn.then(() => (answered = true));
      while (refused < 15 && !answered) await turn();
      release();
      await held;
      assert.equal((await signingIn).status, 303);
      assert.deepEqual((await Promise.all(attackers)).sort(), [
        ...Array(15).fill(400),
        ...Array(15).fill(429),
      ]);
    } finally {
      await busy.close();
    }
  });

  it('sign-in success, failure and throttle → one JSON line each: event, account, email digest, address, device; no secret', async () => {
    const from = lines.length;
    const browser = new Browser(app);
    await browser.signIn(email, PASSWORD);
    await attempt(app, email, 'not the password at all', '203.0.113.50');
    await attempt(app, 'nobody@example.com', 'not the password at all', '203.0.113.51');
    for (let i = 0; i < THROTTLE_POLICIES.email.free; i++)
      await attempt(app, email, `guess ${i}`, '203.0.113.52');
    await attempt(app, email, PASSWORD, '203.0.113.53');
    const logged = events(lines, 'sign_in.', from);
    assert.deepEqual(
      logged.map((line) => [line.event, line.device, line.address]),
      [
        ['sign_in.succeeded', 'unknown', '127.0.0.1'],
        ['sign_in.failed', 'unknown', '203.0.113.50'],
        ['sign_in.failed', 'unknown', '203.0.113.51'],
        ...Array(THROTTLE_POLICIES.email.free).fill(['sign_in.failed', 'unknown', '203.0.113.52']),
        ['sign_in.throttled', 'unknown', '203.0.113.53'],
      ],
    );
    const id = `acc_${email.replace(/\W/g, '_')}`;
    assert.equal(logged[0]!.accountId, id);
    assert.equal(logged[2]!.accountId, null, 'an unknown email names no account');
    assert.equal(logged[0]!.emailDigest, logged[1]!.emailDigest);
    assert.notEqual(logged[1]!.emailDigest, logged[2]!.emailDigest);
    assert.deepEqual([logged.at(-1)!.reason, logged.at(-1)!.retryAfterSeconds], ['email', 1]);
    for (const line of lines.slice(from)) {
      assert.doesNotMatch(
        line,
        /correct horse|not the password|guess \d|@example\.com|petstore_session|v1\.acc_/,
      );
    }
    assert.ok(
      logged.every((line) => typeof line.reqId === 'string'),
      'each line carries its request id',
    );
  });

  it('GET /dashboard/sign-in → the device cookie is never sent to the API or another path', async () => {
    const browser = new Browser(app);
    const form = await browser.get('/dashboard/sign-in');
    const response = await browser.post('/dashboard/sign-in', {
      _csrf: csrfOf(form),
      email,
      password: PASSWORD,
    });
    const device = setCookies(response).find((line) => line.startsWith('petstore_device='))!;
    assert.match(device, /; Path=\/dashboard; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
  });
});
