import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATOR } from '../src/features/shared/actor.ts';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../src/features/identity/passwords.ts';
import { buildApp } from '../src/app.ts';
import { createRateLimiter, type RateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import { systemClock } from '../src/time/clock.ts';
import { createDnsResolver } from '../src/features/domains/dns.ts';
import { accessibility } from './accessibility.ts';
import { layoutProblems } from './dashboard-layout.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { launchChromium, skipWithoutBrowser, VIEWPORTS } from './docs-browser.ts';
import { TEST_PASSWORD_PARAMS } from './harness.ts';
import { linkIn, type MailSink, startMailSink } from './mail-sink.ts';
import { invitationUrl, invite } from '../src/features/members/invitation-mail.ts';

const PASSWORD = 'correct horse battery staple';

let dir: string;
let shots: string;
let storage: Store;
let limiter: RateLimiter;
let app: FastifyInstance;
let port: number;
let zone: ZoneServer;
let mailbox: MailSink;
let context: BrowserContext | undefined;
let page: Page;
const problems: string[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-dashboard-'));
  shots = join(tmpdir(), 'petstore-dashboard-screenshots');
  await mkdir(shots, { recursive: true });
  storage = await openStoreAt(join(dir, 'petstore.db'));
  await storage.migrate();
  limiter = createRateLimiter({ store: createMemoryStore(), clock: systemClock });
  zone = await startZoneServer();
  mailbox = await startMailSink();
  app = buildApp({
    mailer: mailbox.mailer(),
    storage,
    limiter,
    clock: systemClock,
    keyEnvironment: 'test',
    passwordParams: TEST_PASSWORD_PARAMS,
    dns: createDnsResolver([zone.address]),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  const now = Date.now();
  await storage.projects.create({
    id: 'prj_acme',
    slug: 'acme',
    name: 'Acme Docs',
    plan: 'pro',
    perMinute: null,
    perDay: null,
    createdAt: now,
  });
  await storage.accounts.create({
    id: 'acc_ann',
    email: 'ann@example.com',
    passwordHash: await hashPassword(PASSWORD, TEST_PASSWORD_PARAMS),
    createdAt: now,
  });
  await storage.projects.addMember('acc_ann', 'prj_acme', now);
});

after(async () => {
  await context?.close();
  await app?.close();
  await limiter?.close();
  await storage?.close();
  await zone?.close();
  await mailbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openBrowser(): Promise<void> {
  ({ context, page } = await launchChromium(join(dir, 'profile'), {
    viewport: { width: 1280, height: 900 },
  }));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const why = request.failure()?.errorText;
    // ERR_ABORTED is the browser's own cancel (the page moved on while a script still loaded), never
    // the server's failure: a refused or reset connection has errors of its own.
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${why}`);
  });
}

/** axe-core's findings of any impact on every page `shot` took, by page. */
const findings: string[] = [];

/** A screenshot of the page as it is now, and an accessibility check of it. */
const shot = async (name: string) => {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const { serious, minor } = await accessibility(page);
  findings.push(...[...serious, ...minor].map((line) => `${name}: ${line}`));
};

/** The cells of the Requests table drawn on more than one line. */
const wrappedRequestCells = (): Promise<string[]> =>
  page.evaluate(`[...document.querySelectorAll('table.requests td')].flatMap((cell) => {
    // Lines of text, told apart by their tops (text of a smaller size on the same line sits a few px lower).
    const tops = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || node.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) tops.push(rect.top);
    }
    tops.sort((a, b) => a - b);
    const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 10).length;
    return lines > 1 ? [cell.getAttribute('data-label') + ': ' + cell.textContent.trim()] : [];
  })`);

test(
  'the dashboard in Chromium: sign in, open a project, create a key and use it, revoke it, sign out',
  { skip: skipWithoutBrowser },
  async (t) => {
    await openBrowser();
    const base = `http://localhost:${port}`;
    let secret = '';

    await t.test(
      'signed out, /dashboard asks to sign in; a wrong password is named, then the right one signs in',
      async () => {
        await page.goto(`${base}/dashboard`);
        assert.match(page.url(), /\/dashboard\/sign-in$/);
        await page.getByLabel('Email').fill('ann@example.com');
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        assert.match((await page.getByRole('alert').textContent()) ?? '', /do not match an account/);
        await shot('1-sign-in-refused');
        // Chromium reports that refusal's status as a console error; it was asked for.
        problems.splice(0, problems.length, ...problems.filter((p) => !/status of 400/.test(p)));
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: 'Projects' }).waitFor();
        await shot('2-projects');
      },
    );

    await t.test(
      'the project shows its plan, limits and docs site; API keys creates a key shown once after the redirect; a reload shows it no more and creates nothing',
      async () => {
        await page.getByRole('link', { name: /Acme Docs/ }).click();
        await page.getByRole('heading', { name: /Acme Docs/ }).waitFor();
        assert.match(
          (await page.locator('main').textContent()) ?? '',
          /300 requests per project, shared by its keys/,
        );
        await shot('3-project');
        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByLabel(/Label/).fill('Browser test');
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.locator('#new-secret').waitFor();
        assert.match(page.url(), /\/dashboard\/projects\/acme\/keys$/, 'redirected to the keys page');
        secret = ((await page.locator('#new-secret').textContent()) ?? '').trim();
        assert.match(secret, /^ps_test_[A-Za-z0-9_-]{43}$/);
        assert.match(
          (await page.locator('#new-key').textContent()) ?? '',
          /“Browser test” \(ps_test_.{4}…, created \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/,
        );
        assert.equal(
          await page.getByRole('button', { name: 'Copy' }).isVisible(),
          true,
          'the copy button is shown',
        );
        await shot('4-key-created');
        await page.reload();
        await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();
        assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is gone after one view');
        assert.equal((await storage.keys.list('prj_acme')).length, 1, 'the reload created no key');
        assert.doesNotMatch(page.url(), /ps_test_/);
      },
    );

    await t.test('the new key answers GET /v1/pets with the project plan limits', async () => {
      const response = await fetch(`${base}/v1/pets`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), '300');
    });

    await t.test(
      "the project's docs site at acme.sites.localhost is titled with its name and its try-it uses the key",
      async () => {
        const site = await context!.newPage();
        site.on('console', (message) => {
          if (message.type() === 'error') problems.push(`site console error: ${message.text()}`);
        });
        await site.goto(`http://acme.sites.localhost:${port}/`);
        await site.waitForSelector('body[data-state="ready"]');
        assert.match(await site.title(), /^Acme Docs/);
        assert.match((await site.locator('h1').textContent()) ?? '', /Acme Docs/);
        const list = site.locator('section.operation[data-operation-id="listPets"]');
        await list.locator('details.try-it > summary').click();
        await list.locator('input.api-key').fill(secret);
        await list.locator('button.send').click();
        await list.locator('.try-it-result [data-status]').waitFor();
        assert.equal((await list.locator('.try-it-result [data-status]').textContent())?.trim(), '200');
        await site.screenshot({ path: join(shots, '5-docs-site.png') });
        await site.close();
      },
    );

    await t.test('revoke asks first, then the key is refused with 401 at once', async () => {
      await page.getByRole('link', { name: /Revoke/ }).click();
      await page
        .getByRole('heading', { name: /Revoke “Browser test” \(ps_test_.{4}…, created .+ UTC\)\?/ })
        .waitFor();
      await shot('6-revoke-confirm');
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText(/was revoked/).waitFor();
      await shot('7-revoked');
      const response = await fetch(`${base}/v1/pets`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(response.status, 401);
    });

    await t.test(
      'Roll asks how long the old key keeps working, shows the new key once; the old one is "rolling until …"',
      async () => {
        await page.getByLabel(/Label/).fill('Rolled in the browser');
        await page.getByLabel('Expires').selectOption('30');
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.locator('#new-secret').waitFor();
        await page.getByRole('link', { name: /^Roll “Rolled in the browser”/ }).click();
        await page.getByLabel(/The old key keeps working/).selectOption('3600');
        await page.getByRole('button', { name: 'Roll key' }).click();
        await page.locator('#new-secret').waitFor();
        await page.getByText(/keeps working until .+ UTC, then expires/).waitFor();
        assert.equal(await page.getByText(/^rolling until .+ UTC$/).count(), 1);
      },
    );

    await t.test(
      'every page at 1440, 820 and 390 px: the document never wider than the window, nothing cut off, no control over text',
      async () => {
        const project = (await storage.projects.bySlug('acme'))!;
        const hostname = 'a-rather-long-documentation-name.docs.example.test';
        zone.set(hostname, [{ type: 'CNAME', value: 'acme.sites.localhost' }]);
        await (await app.domains.service()).add(OPERATOR, project.slug, hostname);
        const account = await storage.accounts.byEmail('ann@example.com');
        const key = (await storage.keys.list('prj_acme'))[0]!;
        const working = (await storage.keys.list('prj_acme')).find(
          (candidate) => candidate.revokedAt === null && candidate.rolledAt === null,
        )!;
        await app.requestLog!.flush();
        const [logged] = await storage.requestLog.list({ projectId: 'prj_acme', limit: 1 });
        assert.ok(logged, 'the key’s requests are in the request log');
        const pages = [
          '/dashboard',
          '/dashboard/projects/acme',
          '/dashboard/projects/acme/requests',
          `/dashboard/projects/acme/requests/${logged.id}`,
          '/dashboard/projects/acme/activity',
          '/dashboard/projects/acme/domains',
          '/dashboard/projects/acme/members',
          `/dashboard/projects/acme/members/${account!.id}/remove`,
          `/dashboard/projects/acme/keys/${working.id}/edit`,
          `/dashboard/projects/acme/keys/${working.id}/roll`,
          '/dashboard/account',
        ];
        const seen: string[] = [];
        for (const [width, viewport] of Object.entries(VIEWPORTS)) {
          await page.setViewportSize(viewport);
          const label = `Storefront app for the summer sale, ${width}`;
          await page.goto(`${base}/dashboard/projects/acme/keys`);
          await page.getByLabel(/Label/).fill(label);
          await page.getByRole('button', { name: 'Create key' }).click();
          await page.locator('#new-secret').waitFor();
          seen.push(...(await layoutProblems(page)).map((problem) => `${width} keys, a new key: ${problem}`));
          await shot(`9-${width}-keys`);
          const newest = (await storage.keys.list('prj_acme')).find((k) => k.label === label)!;
          await page.goto(`${base}/dashboard/account/tokens`);
          await page.getByLabel('Name', { exact: true }).fill(`Deploy script, ${width}`);
          await page.getByLabel('Read and write').check();
          await page.getByLabel(/Acme Docs/).check();
          await page.getByRole('button', { name: 'Create token' }).click();
          await page.locator('#new-secret').waitFor();
          seen.push(
            ...(await layoutProblems(page)).map((problem) => `${width} tokens, a new token: ${problem}`),
          );
          await shot(`9-${width}-tokens-created`);
          const token = (await app.accessTokens.list(account!.id)).find((t) => t.name.endsWith(width))!;
          for (const path of [
            ...pages,
            `/dashboard/projects/acme/keys/${newest.id}/revoke`,
            '/dashboard/account/tokens',
            `/dashboard/account/tokens/${token.id}/revoke`,
          ]) {
            await page.goto(`${base}${path}`);
            seen.push(...(await layoutProblems(page)).map((problem) => `${width} ${path}: ${problem}`));
            await shot(`9-${width}-${path.split('/').slice(-2).join('-')}`);
            if (path.endsWith('/members') && (await page.locator('select[name="role"]').count()) > 0) {
              const [input, select] = await Promise.all(
                ['#invite input[type="email"], form input[name="email"]', 'select[name="role"]'].map((css) =>
                  page
                    .locator(css)
                    .first()
                    .evaluate((element) => element.getBoundingClientRect().height),
                ),
              );
              if (Math.abs(input! - select!) > 1)
                seen.push(
                  `${width} ${path}: the role select is ${select} px tall beside a ${input} px input`,
                );
            }
            if (width === 'desktop' && path.endsWith('/requests'))
              seen.push(...(await wrappedRequestCells()).map((cell) => `${width} ${path}: wraps ${cell}`));
          }
          const seenNow = page.getByRole('columnheader', { name: 'Seen now' }).first();
          await page.goto(`${base}/dashboard/projects/acme/domains`);
          assert.ok(await seenNow.isVisible(), `"Seen now" shows at ${width}`);
        }
        assert.deepEqual(seen, []);
        assert.ok(key);
        await page.setViewportSize({ width: 1280, height: 900 });
      },
    );

    await t.test('sign out ends the session: the dashboard asks to sign in again', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You are signed out.').waitFor();
      await page.goto(`${base}/dashboard`);
      assert.match(page.url(), /\/dashboard\/sign-in$/);
      await shot('8-signed-out');
    });

    await t.test('Forgot password? mails a link; it sets a new password, which signs in', async () => {
      const NEW_PASSWORD = 'quiet meadow lantern 42';
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByLabel('Email').fill('ann@example.com');
      await page.getByRole('button', { name: 'Mail me a link' }).click();
      await page.getByText('is on its way there').waitFor();
      await shot('10-reset-asked');
      const link = linkIn(await mailbox.next((mail) => mail.to[0] === 'ann@example.com'));
      await page.goto(link.href);
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
      await shot('11-reset-form');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByText('Your password was reset').waitFor();
      await page.getByLabel('Email').fill('ann@example.com');
      await page.getByLabel('Password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
    });

    await t.test(
      'an invitation link opens one page for a new and an existing account, with both forms',
      async () => {
        const project = (await storage.projects.bySlug('acme'))!;
        const { token } = await invite(storage.projects, {
          project,
          email: 'friend@example.com',
          role: 'developer',
          invitedBy: null,
          now: Date.now(),
        });
        await page.goto(invitationUrl(base, token));
        await page.getByRole('heading', { name: 'New to Petstore?' }).waitFor();
        assert.equal(await page.getByRole('button', { name: 'Create account and join' }).count(), 1);
        assert.equal(await page.getByRole('button', { name: 'Sign in and join' }).count(), 1);
        await shot('12-invitation');
      },
    );

    await t.test(
      'accessibility (axe-core) of every page above at every width: no violation of any impact',
      () => {
        assert.deepEqual(findings, []);
      },
    );

    t.diagnostic(`screenshots: ${shots}`);
    assert.deepEqual(problems, []);
  },
);
