import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { hashPassword } from '../src/features/identity/passwords.ts';
import { TOTP_SETTINGS } from '../src/features/identity/two-factor.ts';
import { buildApp } from '../src/app.ts';
import { createRateLimiter, type RateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import { systemClock } from '../src/time/clock.ts';
import { launchChromium, skipWithoutBrowser } from './docs-browser.ts';
import { TEST_PASSWORD_PARAMS } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

let dir: string;
let storage: Store;
let limiter: RateLimiter;
let app: FastifyInstance;
let port: number;
let context: BrowserContext | undefined;
let page: Page;
let cdp: CDPSession;
const problems: string[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-passkeys-browser-'));
  storage = await openStoreAt(join(dir, 'petstore.db'));
  await storage.migrate();
  limiter = createRateLimiter({ store: createMemoryStore(), clock: systemClock });
  app = buildApp({
    storage,
    limiter,
    clock: systemClock,
    keyEnvironment: 'test',
    passwordParams: TEST_PASSWORD_PARAMS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  await storage.accounts.create({
    id: 'acc_ann',
    email: 'ann@example.com',
    passwordHash: await hashPassword(PASSWORD, TEST_PASSWORD_PARAMS),
    createdAt: Date.now(),
  });
});

after(async () => {
  await context?.close();
  await app?.close();
  await limiter?.close();
  await storage?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Signs out through the top bar's form. */
const signOut = async () => {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByText('You are signed out.').waitFor();
};

const signInWithPassword = async () => {
  await page.getByLabel('Email').fill('ann@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

test(
  'passkeys in Chromium with its virtual authenticator: add one, sign in with it alone, and use it instead of the code',
  { skip: skipWithoutBrowser },
  async (t) => {
    ({ context, page } = await launchChromium(join(dir, 'profile')));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    // A WebAuthn RP ID is a host name, never an IP address: the dashboard is opened as localhost.
    const base = `http://localhost:${port}`;

    await t.test(
      'the account page adds a named passkey: a discoverable credential on the authenticator',
      async () => {
        await page.goto(`${base}/dashboard/sign-in`);
        await signInWithPassword();
        await page.getByRole('heading', { name: 'Projects' }).waitFor();
        await page.goto(`${base}/dashboard/account`);
        await page.getByLabel('Name of the new passkey').fill('Work laptop');
        await page.locator('form[data-passkey="create"] input[name="password"]').fill(PASSWORD);
        await page.getByRole('button', { name: 'Add a passkey' }).click();
        await page.getByText('Passkey “Work laptop” added.').waitFor();
        assert.equal(await page.getByRole('cell', { name: 'Work laptop', exact: true }).count(), 1);
        const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
        assert.equal(credentials.length, 1);
        assert.equal(credentials[0]!.isResidentCredential, true);
        assert.equal(credentials[0]!.rpId, 'localhost');
      },
    );

    await t.test('"Sign in with a passkey" signs in without the email or password', async () => {
      await signOut();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      await page.goto(`${base}/dashboard/account`);
      assert.doesNotMatch(
        (await page.getByRole('row', { name: /Work laptop/ }).textContent()) ?? '',
        /never/,
      );
    });

    await t.test('with two-factor on, the code step takes the passkey instead of a code', async () => {
      // The passkey is the account's second factor already: the app comes on top of it.
      await page.getByRole('link', { name: 'Add an authenticator app too' }).click();
      const secret = ((await page.locator('#two-factor-secret').textContent()) ?? '').replace(/ /g, '');
      const code = TOTP.generate({
        ...TOTP_SETTINGS,
        secret: Secret.fromBase32(secret),
        timestamp: Date.now(),
      });
      await page.getByLabel('Code', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await page.getByText('Two-factor sign-in is on.').waitFor();
      await signOut();
      await signInWithPassword();
      await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
      await page.getByRole('button', { name: 'Use a passkey instead' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
    });

    await t.test(
      'a passkey the authenticator no longer holds: the page says so, and nothing breaks',
      async () => {
        await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
        await signOut();
        await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await page.locator('#passkey-sign-in-problem').waitFor();
        assert.match(
          (await page.locator('#passkey-sign-in-problem').textContent()) ?? '',
          /cancelled|could not/,
        );
        assert.deepEqual(problems, []);
      },
    );
  },
);
