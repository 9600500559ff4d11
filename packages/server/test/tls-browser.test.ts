import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, skipWithoutBrowser } from './docs-browser.ts';
import { until } from './tls-client.ts';
import { skipWithoutTlsTools } from './tls-tools.ts';
import { accessibility } from './accessibility.ts';
import { API_HOST, SITE_DOMAIN, startTlsStack, type TlsStack } from './tls-stack.ts';

const PASSWORD = 'correct horse battery staple';
const TARGET = `beta.${SITE_DOMAIN}`;

let stack: TlsStack;
let profile: string;
let shots: string;
let context: BrowserContext | undefined;
let page: Page;
const problems: string[] = [];

const skip = skipWithoutTlsTools || skipWithoutBrowser;

before(async () => {
  if (skip) return;
  stack = await startTlsStack();
  stack.zone.set(TARGET, [{ type: 'A', value: '127.0.0.1' }]);
  for (const args of [
    ['projects', 'create', '--name', 'Beta Docs', '--slug', 'beta', '--plan', 'free'],
    ['admin', 'create', '--email', 'bea@example.com'],
    ['admin', 'add-member', '--email', 'bea@example.com', '--project', 'beta'],
  ]) {
    const result = await stack.cli(args, `${PASSWORD}\n`);
    assert.equal(result.code, 0, result.stderr);
  }
});

after(async () => {
  if (problems.length > 0 && stack) console.error(stack.logs());
  await context?.close();
  await stack?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function openBrowser(): Promise<void> {
  profile = await mkdtemp(join(tmpdir(), 'petstore-tls-browser-'));
  shots = join(tmpdir(), 'petstore-tls-screenshots');
  await mkdir(shots, { recursive: true });
  ({ context, page } = await launchChromium(profile, {
    viewport: { width: 1280, height: 900 },
    // The certificates come from the test CA (Pebble); their chain is checked by tls-e2e.test.ts.
    ignoreHTTPSErrors: true,
    // Every test name is this machine, as the customer's DNS would make it: no /etc/hosts needed.
    args: ['--host-resolver-rules=MAP *.example.test 127.0.0.1'],
    timeoutMs: 15_000,
  }));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

/** axe-core's serious or critical findings on every page `shot` took, by page. */
const findings: string[] = [];

/** A screenshot for the test's output (whole dashboard pages, the docs site's first screen), and an accessibility check of the page. */
const shot = async (name: string, fullPage = true) => {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
  const { serious } = await accessibility(page);
  findings.push(...serious.map((line) => `${name}: ${line}`));
};
const url = (host: string, path = '/') => `https://${host}:${stack.httpsPort}${path}`;
const domainsPage = () => url(API_HOST, '/dashboard/projects/beta/domains');
/** Chromium reports asked-for error statuses as console errors: those are expected, nothing else. */
const expectStatusErrors = () =>
  problems.splice(0, problems.length, ...problems.filter((p) => !/status of (400|404)/.test(p)));

test(
  'custom domains in Chromium over HTTPS through Caddy and Pebble: refused below Pro, added, verified, certified, made primary, removed',
  { skip },
  async (t) => {
    await openBrowser();

    await t.test(
      'signed in, a project on Free sees the add form disabled, with one message naming the plan',
      async () => {
        await page.goto(url(API_HOST, '/dashboard'));
        await page.getByLabel('Email').fill('bea@example.com');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('link', { name: /Beta Docs/ }).click();
        await page.getByRole('link', { name: 'Domains' }).click();
        assert.equal(await page.getByLabel(/Domain/).isDisabled(), true);
        assert.equal(await page.getByRole('button', { name: 'Add domain' }).isDisabled(), true);
        const notice = (await page.locator('#plan-needed').textContent()) ?? '';
        assert.match(notice, /need the Pro plan or above; this project is on the Free plan/);
        await shot('1-refused-below-pro');
        expectStatusErrors();
      },
    );

    await t.test(
      'upgraded with `petstore projects set-plan`, docs.example.test is added and its record shown',
      async () => {
        const upgraded = await stack.cli(['projects', 'set-plan', 'beta', '--plan', 'pro']);
        assert.equal(upgraded.code, 0, upgraded.stderr);
        await page.goto(domainsPage());
        await page.getByLabel(/Domain/).fill('docs.example.test');
        await page.getByRole('button', { name: 'Add domain' }).click();
        await page.getByText('docs.example.test was added').waitFor();
        const card = page.locator('section.card', {
          has: page.getByRole('heading', { name: /docs\.example\.test/ }),
        });
        assert.match((await card.getByRole('heading').first().textContent()) ?? '', /Waiting for DNS/);
        const cells = card.locator('tbody tr td');
        assert.equal((await cells.nth(0).innerText()).trim(), 'CNAME');
        // The name as providers want it (`docs`), with the full name beneath.
        assert.equal(await cells.nth(1).locator('output').textContent(), 'docs');
        assert.match(await cells.nth(1).innerText(), /docs\.example\.test/);
        assert.equal(await cells.nth(2).locator('output').textContent(), TARGET);
        assert.equal(await cells.nth(2).getByRole('button', { name: 'Copy' }).isVisible(), true);
        await shot('2-added-pending');
      },
    );

    await t.test(
      'the CNAME appears in DNS; "Check now" verifies it and Caddy gets its certificate from Pebble',
      async () => {
        stack.zone.set('docs.example.test', [{ type: 'CNAME', value: TARGET }]);
        await page.getByRole('button', { name: 'Check now docs.example.test' }).click();
        await page.getByText('docs.example.test was checked just now: verified, it is served.').waitFor();
        const card = page.locator('section.card', {
          has: page.getByRole('heading', { name: /docs\.example\.test/ }),
        });
        assert.match((await card.getByRole('heading').first().textContent()) ?? '', /Verified/);
        // The page probes Caddy, which obtains the certificate during that very handshake.
        for (let tries = 0; !(await card.getByText(/issued by Pebble Intermediate CA/).count()); tries++) {
          assert.ok(tries < 20, `no certificate shown: ${await card.textContent()}`);
          await page.waitForTimeout(250);
          await page.reload();
        }
        assert.match(await card.innerText(), /valid until \d{4}-\d{2}-\d{2}/);
        await shot('3-verified-certificate');
      },
    );

    await t.test('docs.example.test serves the project docs over HTTPS', async () => {
      // Every instance learns of a newly verified domain at its next host refresh (the site hosts it routes by).
      await until('docs.example.test is routed', async () =>
        (await stack.https('docs.example.test')).status === 200 ? true : undefined,
      );
      const response = await page.goto(url('docs.example.test'));
      assert.equal(response?.status(), 200);
      assert.equal(await page.title(), 'Beta Docs · API reference');
      const security = await response!.securityDetails();
      assert.match(security?.issuer ?? '', /Pebble Intermediate CA/);
      assert.equal(security?.subjectName, 'docs.example.test');
      await shot('4-docs-site', false);
    });

    await t.test(
      'a second domain made primary: the first answers 301 there, and the browser follows',
      async () => {
        stack.zone.set('developers.example.test', [{ type: 'CNAME', value: TARGET }]);
        await page.goto(domainsPage());
        await page.getByLabel(/Domain/).fill('developers.example.test');
        await page.getByRole('button', { name: 'Add domain' }).click();
        await page.getByText('developers.example.test was added').waitFor();
        await page.getByRole('button', { name: 'Make primary developers.example.test' }).click();
        await page.getByText('developers.example.test is now the primary domain').waitFor();
        await shot('5-primary');
        await until('developers.example.test is routed', async () =>
          (await stack.https('developers.example.test')).status === 200 ? true : undefined,
        );
        const response = await page.goto(url('docs.example.test', '/?from=old'));
        assert.equal(page.url(), url('developers.example.test', '/?from=old'));
        assert.equal(response?.request().redirectedFrom()?.url(), url('docs.example.test', '/?from=old'));
        assert.equal((await response?.request().redirectedFrom()?.response())?.status(), 301);
        assert.equal(await page.title(), 'Beta Docs · API reference');
        await shot('6-followed-301', false);
      },
    );

    await t.test(
      'removing docs.example.test: gone from the page, and its host serves nothing at once',
      async () => {
        await page.goto(domainsPage());
        await page.getByRole('link', { name: 'Remove docs.example.test' }).click();
        await page.getByRole('heading', { name: 'Remove docs.example.test?' }).waitFor();
        await page.getByRole('button', { name: 'Remove domain' }).click();
        await page.getByText('docs.example.test was removed').waitFor();
        assert.equal(await page.getByRole('heading', { name: /^docs\.example\.test/ }).count(), 0);
        await shot('7-removed');
        const response = await page.goto(url('docs.example.test', '/?from=old'));
        assert.equal(response?.status(), 404);
        assert.notEqual(await page.title(), 'Beta Docs · API reference');
        await shot('8-removed-host');
        expectStatusErrors();
      },
    );

    await t.test('accessibility (axe-core) of every page above: no serious or critical violation', () => {
      assert.deepEqual(findings, []);
    });

    t.diagnostic(`screenshots: ${shots}`);
    assert.deepEqual(problems, []);
  },
);
