import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { generateKey } from '../src/auth/keys.ts';
import { createRateLimiter, type RateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { getPetDeprecation } from './contract-deprecation.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import type { Storage } from '../src/storage/repository.ts';
import { systemClock } from '../src/time/clock.ts';

const CHROMIUM = '/usr/bin/chromium';
const MISSING = `${CHROMIUM} is missing: install Debian's chromium with \`bash scripts/ensure-chromium.sh\``;
const hasChromium = existsSync(CHROMIUM);
const skip = !hasChromium && process.env.PETSTORE_REQUIRE_BROWSER !== '1' ? MISSING : false;

let dir: string;
let storage: Storage;
let limiter: RateLimiter;
let app: FastifyInstance;
let base: string;
let context: BrowserContext | undefined;
let page: Page;
const problems: string[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-docs-'));
  storage = await openStorage(join(dir, 'petstore.db'));
  await storage.migrate();
  limiter = createRateLimiter({ store: createMemoryStore(), clock: systemClock });
  app = buildApp({ storage, limiter, clock: systemClock, keyEnvironment: 'test' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

async function openBrowser(): Promise<void> {
  if (!hasChromium) throw new Error(MISSING);
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.setDefaultTimeout(10_000);
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith('data:')) problems.push(`external request: ${url}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
}

after(async () => {
  await context?.close();
  await app?.close();
  await limiter?.close();
  await storage?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function createKey(): Promise<string> {
  const { secret, id, digest } = generateKey('test');
  await storage.createKey({
    id,
    digest,
    plan: 'business',
    perMinute: null,
    perDay: null,
    label: 'docs page test',
    environment: 'test',
    createdAt: systemClock.now(),
    expiresAt: null,
  });
  return secret;
}

const text = async (locator: Locator): Promise<string> => (await locator.textContent()) ?? '';
const operation = (id: string) => page.locator(`section.operation[data-operation-id="${id}"]`);

test('GET /docs → 200 HTML with a strict CSP, revalidated by ETag, no key needed', async () => {
  const response = await fetch(`${base}/docs`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(response.headers.get('cache-control'), 'no-cache');
  assert.equal(response.headers.get('x-ratelimit-limit'), '1200', 'counted in the public budget');
  const etag = response.headers.get('etag') ?? '';
  const again = await fetch(`${base}/docs`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  const missing = await fetch(`${base}/docs/assets/nothing.js`);
  assert.equal(missing.status, 404);
});

test('GET /docs in Chromium renders the reference and a Try it round trip works', { skip }, async (t) => {
  const started = Date.now();
  await openBrowser();
  await page.goto(`${base}/docs`);
  await page.waitForSelector('body[data-state="ready"]');

  await t.test('operations are listed under their tags', async () => {
    for (const id of ['listPets', 'createPet', 'getPet']) {
      assert.equal(await page.locator(`section[id="tag/Pets"] [data-operation-id="${id}"]`).count(), 1, id);
    }
    assert.equal(
      await page.locator('section[id="tag/Store"] [data-operation-id="listStoreOrders"]').count(),
      1,
    );
    assert.equal(await page.locator('section[id="tag/Operations"] section.operation').count(), 5);
    assert.match(await text(page.locator('h1')), /Pet Store API/);
    assert.equal(await page.locator('section[id="section/Security-schemes"]').count(), 1);
  });

  await t.test(
    "the deprecation Link header's target is getPet, shown deprecated with its sunset",
    async () => {
      const target = /<\/docs#([^>]+)>; rel="deprecation"/.exec(getPetDeprecation.headers.link ?? '')?.[1];
      assert.equal(target, 'tag/Pets/operation/getPet');
      const getPet = page.locator(`section[id="${target}"]`);
      assert.equal(await getPet.getAttribute('data-operation-id'), 'getPet');
      assert.equal((await text(getPet.locator('.badge[data-stability]'))).toLowerCase(), 'deprecated');
      assert.match(await text(getPet.locator('.notice.deprecated')), /2030-12-05/);
    },
  );

  await t.test('store orders are experimental, with Try it disabled', async () => {
    const orders = operation('listStoreOrders');
    assert.equal((await text(orders.locator('.badge[data-stability]'))).toLowerCase(), 'experimental');
    assert.equal(await orders.locator('[data-try-it="enabled"]').count(), 0);
    assert.match(await text(orders.locator('[data-try-it="disabled"]')), /disabled/);
  });

  await t.test('int64 examples keep every digit', async () => {
    assert.match(await text(operation('createPet')), /"categoryId": 9223372036854775807/);
  });

  await t.test('Try it: POST a pet, then list it', async () => {
    const key = await createKey();
    const create = operation('createPet');
    await create.locator('details.try-it > summary').click();
    await create.locator('input.api-key').fill(key);
    await create
      .locator('textarea.body-editor')
      .fill('{"name": "Ziggy", "categoryId": 9223372036854775806, "status": "available"}');
    await create.locator('button.send').click();
    await create.locator('.try-it-result [data-status]').waitFor();
    assert.equal(await text(create.locator('.try-it-result [data-status]')), '201');
    const created = await text(create.locator('.try-it-result .result-body'));
    assert.match(created, /"name": "Ziggy"/);
    assert.match(created, /"categoryId": 9223372036854775806/);
    assert.match(created, /"id": \d+/);

    const list = operation('listPets');
    await list.locator('details.try-it > summary').click();
    assert.equal(await list.locator('input.api-key').inputValue(), key, 'the key is shared between panels');
    await list.locator('select[name="query:status"]').selectOption('available');
    await list.locator('button.send').click();
    await list.locator('.try-it-result [data-status]').waitFor();
    assert.equal(await text(list.locator('.try-it-result [data-status]')), '200');
    assert.match(await text(list.locator('.try-it-result .result-body')), /"name": "Ziggy"/);
    assert.equal(
      await page.evaluate(() => sessionStorage.getItem('petstore.docs.apiKey')),
      key,
      'the key stays in session storage',
    );
  });

  await t.test('the page JSON module keeps 64-bit integers through parsing and pretty printing', async () => {
    const result = await page.evaluate(async (moduleUrl) => {
      const json = await import(moduleUrl);
      const text = '{"id":9223372036854775807,"min":-9223372036854775808,"small":42,"ratio":0.5,"list":[]}';
      const value = json.parseLossless(text);
      return {
        id: String(value.id),
        idIsBigint: typeof value.id === 'bigint',
        small: value.small,
        pretty: json.stringifyPretty(value),
        notJson: json.formatBody('not json'),
        empty: json.formatBody(''),
      };
    }, '/docs/assets/json.js');
    assert.equal(result.id, '9223372036854775807');
    assert.equal(result.idIsBigint, true);
    assert.equal(result.small, 42);
    assert.equal(
      result.pretty,
      '{\n  "id": 9223372036854775807,\n  "min": -9223372036854775808,\n  "small": 42,\n  "ratio": 0.5,\n  "list": []\n}',
    );
    assert.equal(result.notJson, 'not json');
    assert.equal(result.empty, '');
  });

  await t.test('a link to an operation scrolls to it once rendered', async () => {
    await page.goto(`${base}/docs#tag/Pets/operation/getPet`);
    await page.waitForSelector('body[data-state="ready"]');
    const top = await page
      .locator('section[id="tag/Pets/operation/getPet"]')
      .evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 40, `getPet is at the top of the viewport (top = ${top})`);
  });

  const shot = join(tmpdir(), 'petstore-docs-page.png');
  await page.goto(`${base}/docs#tag/Pets`);
  await page.waitForSelector('body[data-state="ready"]');
  await page.screenshot({ path: shot });
  t.diagnostic(`screenshot: ${shot}; browser checks took ${Date.now() - started} ms`);

  assert.deepEqual(problems, []);
});
