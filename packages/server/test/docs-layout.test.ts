import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { docsAsset } from '../src/docs/assets.ts';
import { docsPage } from '../src/docs/page.ts';
import { sendStaticAsset } from '../src/web/static-asset.ts';
import { accessibility } from './accessibility.ts';
import { copyButtonsOverCode, coveredText, horizontalOverflow } from './layout-checks.ts';
import {
  type Browser,
  type DocsServer,
  load,
  openBrowser,
  skipWithoutBrowser,
  startDocsServer,
  VIEWPORTS,
} from './docs-browser.ts';

// What the callbacks of page.evaluate use of the browser's globals (this program has no DOM types).
declare const document: {
  getElementById(id: string): { getBoundingClientRect(): { x: number } } | null;
  querySelector(selector: string): { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};
declare const innerWidth: number;
declare const scrollY: number;
declare function getComputedStyle(element: unknown): { lineHeight: string };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const box = async (page: Page, selector: string): Promise<Box> => {
  const found = await page.locator(selector).first().boundingBox();
  assert.ok(found, `${selector} is laid out`);
  return found;
};

/** Codes in the error catalogue that wrap onto a second line. */
const brokenCodes = (page: Page) =>
  page
    .locator('tr[id^="error/"] td:first-child code')
    .evaluateAll((codes) =>
      codes
        .filter(
          (code) => code.getBoundingClientRect().height > parseFloat(getComputedStyle(code).lineHeight) * 1.5,
        )
        .map((code) => code.textContent),
    );

describe('the docs page at desktop, tablet and phone widths', { skip: skipWithoutBrowser }, () => {
  let server: DocsServer;
  let browser: Browser;
  let page: Page;
  let shots: string;
  let noSite: string;

  before(async () => {
    server = await startDocsServer();
    // Chromium sends every *.localhost name to this machine: a docs site host with no site behind it.
    noSite = server.base.replace('127.0.0.1', 'nope.sites.localhost');
    browser = await openBrowser(join(server.dir, 'profile'), [server.base, noSite]);
    page = browser.page;
    shots = await mkdtemp(join(tmpdir(), 'petstore-docs-screenshots-'));
  });

  after(async () => {
    await browser?.context.close();
    await server?.close();
  });

  const shoot = async (name: string) => page.screenshot({ path: join(shots, `${name}.png`) });

  it('desktop: navigation, prose and examples side by side; the examples stay in view while reading', async (t) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await load(page, `${server.base}/docs`);
    await shoot('desktop-top');
    const operation = 'section[data-operation-id="createPet"]';
    const [sidebar, prose, examples] = [
      await box(page, '#sidebar'),
      await box(page, `${operation} .prose-column`),
      await box(page, `${operation} .examples-column`),
    ];
    assert.ok(sidebar.x + sidebar.width <= prose.x, 'navigation left of the prose');
    assert.ok(prose.x + prose.width < examples.x, 'examples right of the prose');
    await page.locator(`${operation} .responses`).scrollIntoViewIfNeeded();
    const panel = await box(page, `${operation} .request-panel`);
    assert.ok(panel.y >= 56 && panel.y < 120, `the request panel sticks under the top bar (y = ${panel.y})`);
    await load(page, `${server.base}/docs#tag/Pets/operation/createPet`);
    await shoot('desktop-operation');
    await page.waitForFunction(
      () => document.querySelector('#sidebar [aria-current]')?.textContent === 'POSTAdd a pet',
    );
    assert.deepEqual(await brokenCodes(page), []);
    t.diagnostic(`screenshots: ${shots}`);
  });

  for (const [name, viewport] of [
    ['tablet', VIEWPORTS.tablet],
    ['phone', VIEWPORTS.phone],
  ] as const) {
    it(`${name}: one column, examples under their text, navigation behind Menu, nothing wider than the screen`, async () => {
      await page.setViewportSize(viewport);
      await load(page, `${server.base}/docs#tag/Pets/operation/createPet`);
      await shoot(`${name}-operation`);
      assert.equal(await page.locator('#sidebar').isVisible(), false, 'the navigation is closed');
      const operation = 'section[data-operation-id="createPet"]';
      const [prose, examples] = [
        await box(page, `${operation} .prose-column`),
        await box(page, `${operation} .examples-column`),
      ];
      assert.ok(examples.y >= prose.y + prose.height - 1, 'examples under the prose');
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: innerWidth,
      }));
      assert.ok(widths.page <= widths.screen, `page ${widths.page} px wide on a ${widths.screen} px screen`);
      assert.deepEqual(await brokenCodes(page), []);

      const where = () =>
        page.evaluate(() => ({
          y: scrollY,
          current: document.querySelector('#sidebar [aria-current]')?.textContent,
        }));
      const before = await where();
      assert.equal(before.current, 'POSTAdd a pet');
      const open = async () => {
        await page.locator('.menu-button').click();
        await page.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().x >= 0);
        assert.equal(await page.locator('.menu-button').getAttribute('aria-expanded'), 'true');
      };
      await open();
      await shoot(`${name}-menu`);
      assert.deepEqual(await where(), before, 'opening the menu moves nothing');
      await page.locator('.menu-button').click();
      await page.locator('#sidebar').waitFor({ state: 'hidden' });
      assert.deepEqual(await where(), before, 'closing it with its button moves nothing');
      await open();
      await page.keyboard.press('Escape');
      await page.locator('#sidebar').waitFor({ state: 'hidden' });
      assert.deepEqual(await where(), before, 'closing it with Escape moves nothing');
      /** Follows a link of the drawer: it closes, and the link's part of the page is highlighted. */
      const follow = async (hash: string, highlighted: string) => {
        await open();
        await page.locator(`#sidebar a[href="${hash}"]`).click();
        await page.locator('#sidebar').waitFor({ state: 'hidden' });
        assert.equal(new URL(page.url()).hash, hash);
        await page.waitForFunction(
          (text) => document.querySelector('#sidebar [aria-current]')?.textContent === text,
          highlighted,
        );
      };
      await follow('#tag/Pets/operation/listPets', 'GETList pets');
      await follow('#section/Errors', 'Errors');
      await shoot(`${name}-errors`);
    });
  }

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`${name}: nothing wider than the window, no control over text, Copy buttons beside their code`, async () => {
      await page.setViewportSize(viewport);
      for (const anchor of ['section/Authentication', 'tag/Pets/operation/createPet', 'schema/Pet']) {
        await load(page, `${server.base}/docs#${anchor}`);
        assert.equal(await horizontalOverflow(page), 0, `${anchor}: the page scrolls sideways`);
        assert.deepEqual(await copyButtonsOverCode(page), [], anchor);
        assert.deepEqual(await coveredText(page), [], anchor);
        // Long lines scrolled to their end: still nothing on top of them.
        await page.locator('pre').evaluateAll((blocks) => {
          for (const block of blocks) block.scrollLeft = block.scrollWidth;
        });
        assert.deepEqual(await coveredText(page), [], `${anchor}, code scrolled to its end`);
      }
    });
  }

  it('search at phone width: opens with its button, results fit the screen', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await load(page, `${server.base}/docs`);
    await page.locator('.search-button').click();
    await page.locator('#search-input').fill('invalid');
    await page.locator('.search-result').first().waitFor();
    const dialog = await box(page, '.search-dialog');
    assert.ok(dialog.x >= 0 && dialog.x + dialog.width <= VIEWPORTS.phone.width);
    await shoot('phone-search');
    await page.keyboard.press('Escape');
  });

  it('accessibility (axe-core) at every width, a key typed, with search and the menu open: no serious or critical violation', async (t) => {
    const check = async (name: string) => {
      const { serious, minor, rules } = await accessibility(page);
      const detail = minor.length ? `: ${minor.join('; ')}` : '';
      t.diagnostic(
        `axe ${name}: ${rules} rules, ${serious.length} serious or critical, ${minor.length} minor${detail}`,
      );
      assert.deepEqual(serious, [], name);
    };
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await load(page, `${server.base}/docs`);
      // A typed key must be readable (it was #e2e8f0 on white, 1.23:1): axe checks the input's text.
      await page.locator('#api-key').fill('ps_test_readable0123456789');
      await page.locator('section[data-operation-id="createPet"] details.try-it > summary').click();
      await check(name);
    }
    await page.locator('.menu-button').click();
    await page.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().x >= 0);
    await check('phone, menu open');
    assert.notEqual(
      await page.evaluate("getComputedStyle(document.getElementById('sidebar')).boxShadow"),
      'none',
      'the open drawer dims the page behind it (a scrim)',
    );
    await page.keyboard.press('Escape');
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.keyboard.press('Control+k');
    await page.locator('#search-input').fill('pet');
    await page.locator('.search-result').first().waitFor();
    await check('desktop, search open');
    await page.keyboard.press('Escape');
  });

  it('error pages (API host, docs site) at every width: styled, nothing wider than the window, axe clean', async () => {
    const long = `/${'no-such-page-'.repeat(30)}`;
    const seen = browser.problems.length;
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const url of [`${server.base}${long}`, `${noSite}/`]) {
        const response = await page.goto(url);
        assert.equal(response?.status(), 404, url);
        await shoot(`${name}-error-${url === `${noSite}/` ? 'site' : 'api'}`);
        assert.equal(await page.locator('h1').textContent(), 'Not found');
        const font = await page.evaluate('getComputedStyle(document.body).fontFamily');
        assert.match(String(font), /^system-ui/, "the dashboard's type, not the browser's default serif");
        assert.equal(await horizontalOverflow(page), 0, `${name} ${url}`);
        assert.deepEqual(await coveredText(page), []);
        assert.deepEqual((await accessibility(page)).serious, [], `${name} ${url}`);
      }
    }
    // Chromium reports each 404 it opened as a failed resource; those, and only those, were expected.
    const fresh = browser.problems.splice(seen);
    assert.deepEqual(
      fresh.filter((problem) => !/status of 404/.test(problem)),
      [],
    );
  });

  it('nothing went wrong: no console error, failed or foreign request', () => {
    assert.deepEqual(browser.problems, []);
  });
});

describe(
  'the docs page published on another host, calling the API on its own origin',
  { skip: skipWithoutBrowser },
  () => {
    let server: DocsServer;
    let site: FastifyInstance;
    let siteBase: string;
    let browser: Browser;

    before(async () => {
      server = await startDocsServer();
      site = Fastify();
      const page = docsPage({ title: 'Acme Pets', apiOrigin: server.base, edition: 'site' });
      site.get('/', (request, reply) => sendStaticAsset(request, reply, page));
      site.get('/docs/assets/:name', async (request, reply) =>
        sendStaticAsset(request, reply, (await docsAsset((request.params as { name: string }).name))!),
      );
      await site.listen({ port: 0, host: '127.0.0.1' });
      siteBase = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
      browser = await openBrowser(join(server.dir, 'profile-site'), [siteBase, server.base]);
    });

    after(async () => {
      await browser?.context.close();
      await site?.close();
      await server?.close();
    });

    it("titled with the site's name; samples, base URL and Try it go to the API's origin, allowed by the CSP", async () => {
      const { page } = browser;
      const response = await fetch(`${siteBase}/`);
      assert.match(
        response.headers.get('content-security-policy') ?? '',
        new RegExp(`connect-src 'self' ${server.base};`),
      );
      const calls: { url: string; authorization?: string }[] = [];
      // The API answers cross-origin requests only once CORS allows it; here the browser's requests are
      // answered on its behalf, to see where they go.
      await page.route(`${server.base}/v1/**`, (route) => {
        const request = route.request();
        calls.push({ url: request.url(), authorization: request.headers().authorization });
        const cors = {
          'access-control-allow-origin': siteBase,
          'access-control-allow-headers': 'authorization, content-type',
          'access-control-expose-headers': '*',
        };
        return request.method() === 'OPTIONS'
          ? route.fulfill({ status: 204, headers: cors })
          : route.fulfill({
              status: 200,
              headers: { ...cors, 'content-type': 'application/json' },
              body: '[]',
            });
      });
      await load(page, `${siteBase}/`);
      assert.equal(await page.title(), 'Acme Pets · API reference');
      assert.equal(await page.locator('h1').textContent(), 'Acme Pets');
      assert.equal(await page.locator('.brand').textContent(), 'Acme Pets');
      assert.deepEqual(await page.locator('#section\\/Servers code.url').allTextContents(), [
        `${server.base}/v1`,
      ]);
      const operations = await page
        .locator('section.operation')
        .evaluateAll((sections) => sections.map((section) => section.getAttribute('data-operation-id')));
      assert.deepEqual(operations, ['listPets', 'createPet', 'getPet', 'listStoreOrders']);
      const install = `npm install ${server.base}/docs/assets/petstore-client-1.0.0.tgz`;
      assert.equal(await page.locator('#section\\/TypeScript-client pre').textContent(), install);
      const create = page.locator('section[data-operation-id="createPet"]');
      await create.locator('[role="tab"][data-language="typescript"]').click();
      assert.match(
        (await create.locator('[role="tabpanel"]:not([hidden]) pre').textContent()) ?? '',
        new RegExp(
          `^// ${install.replaceAll('.', '\\.')}\nimport \\{ createPetstoreClient \\} from '@petstore/client';`,
        ),
      );
      await create.locator('[role="tab"][data-language="curl"]').click();
      const curl = await page
        .locator('section[data-operation-id="listPets"] [role="tabpanel"]:not([hidden]) pre')
        .textContent();
      assert.match(curl ?? '', new RegExp(`'${server.base}/v1/pets\\?limit=20'`));
      await page.locator('#api-key').fill('ps_test_fromthesite');
      assert.deepEqual((await accessibility(page)).serious, [], 'the typed key is readable on the site');
      const list = page.locator('section[data-operation-id="listPets"]');
      await list.locator('details.try-it > summary').click();
      await list.locator('button.send').click();
      await list.locator('.try-it-result [data-status="200"]').waitFor();
      const loose = await list
        .locator('.try-it-result')
        .evaluate((output) =>
          [...output.childNodes].filter((node) => node.nodeType !== 1).map((node) => node.textContent),
        );
      assert.deepEqual(loose, [], 'no stray text (such as "null") beside the result of a page without Link');
      const sent = calls.find((call) => call.authorization);
      assert.equal(sent?.url, `${server.base}/v1/pets`);
      assert.equal(sent?.authorization, 'Bearer ps_test_fromthesite');
      assert.deepEqual(browser.problems, []);
    });
  },
);
