import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { getPetDeprecation } from './contract-deprecation.ts';
import {
  type Browser,
  type DocsServer,
  load,
  openBrowser,
  skipWithoutBrowser,
  startDocsServer,
} from './docs-browser.ts';

const INT64_MAX = '9223372036854775807';

// What the callbacks of page.evaluate use of the browser's globals (this program has no DOM types).
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const document: { activeElement: { className: string } | null };

describe('the docs page in Chromium', { skip: skipWithoutBrowser }, () => {
  let server: DocsServer;
  let browser: Browser;
  let page: Page;
  let key: string;

  const text = async (locator: Locator): Promise<string> => (await locator.textContent()) ?? '';
  const operation = (id: string) => page.locator(`section.operation[data-operation-id="${id}"]`);
  const setKey = async (secret: string) => {
    await page.locator('#api-key').fill(secret);
  };

  before(async () => {
    server = await startDocsServer();
    key = await server.createKey();
    browser = await openBrowser(join(server.dir, 'profile'), [server.base]);
    page = browser.page;
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    await load(page, `${server.base}/`);
  });

  after(async () => {
    await browser?.context.close();
    await server?.close();
  });

  it('GET / → lands on /docs, titled with the contract title', async () => {
    assert.equal(new URL(page.url()).pathname, '/docs');
    assert.equal(await page.title(), 'Pet Store API · API reference');
    assert.equal(await text(page.locator('h1')), 'Pet Store API');
  });

  it("Base URLs: this copy's own, on the origin the page was asked on, alone: none of the contract's other deployments (production, staging); the samples use it", async () => {
    const panel = page.locator('#section\\/Servers');
    assert.deepEqual(await panel.locator('code.url').allTextContents(), [`${server.base}/v1`]);
    assert.doesNotMatch(await text(panel), /petstore\.example|Production|Staging/);
    const curl = await text(operation('listPets').locator('[role="tabpanel"]:not([hidden]) pre'));
    assert.match(curl, new RegExp(`'${server.base.replaceAll('.', '\\.')}/v1/pets\\?limit=20'`));
  });

  it('operations are listed under their tags, schemas after them', async () => {
    for (const id of ['listPets', 'createPet', 'getPet']) {
      assert.equal(await page.locator(`[data-operation-id="${id}"]`).count(), 1, id);
    }
    assert.equal(await page.locator('section.operation').count(), 9);
    for (const name of ['Pet', 'NewPet', 'PetStatus', 'Error']) {
      assert.equal(await page.locator(`section[id="schema/${name}"]`).count(), 1, name);
    }
    assert.equal(await page.locator('tr[id="schema/Pet/categoryId"]').count(), 1);
    await operation('listPets').locator('.responses a[href="#schema/Pet"]').first().click();
    assert.equal(new URL(page.url()).hash, '#schema/Pet');
  });

  it('getPet: one deprecation notice, with its sunset and successor, where the Link header points', async () => {
    const target = /<\/docs#([^>]+)>; rel="deprecation"/.exec(getPetDeprecation.headers.link ?? '')?.[1];
    assert.equal(target, 'tag/Pets/operation/getPet');
    const getPet = page.locator(`section[id="${target}"]`);
    assert.equal(await getPet.getAttribute('data-operation-id'), 'getPet');
    assert.equal((await text(getPet.locator('.badge[data-stability]'))).toLowerCase(), 'deprecated');
    const prose = (
      await getPet.locator('.prose-column > .notice, .prose-column > .markdown').allTextContents()
    ).join(' ');
    assert.equal(prose.match(/deprecated/gi)?.length, 1, prose);
    const notice = getPet.locator('.notice.deprecated');
    assert.equal(await notice.count(), 1);
    assert.match(
      await text(notice),
      /will be removed on 5 December 2030 \(2030-12-05T00:00:00Z\)\. Use\sGET \/pets with the status filter/,
    );
  });

  it('store orders: experimental, with Try it disabled', async () => {
    const orders = operation('listStoreOrders');
    assert.equal((await text(orders.locator('.badge[data-stability]'))).toLowerCase(), 'experimental');
    assert.equal(await orders.locator('[data-try-it="enabled"]').count(), 0);
    assert.match(await text(orders.locator('[data-try-it="disabled"]')), /disabled/);
  });

  it('code samples: curl, the TypeScript client and Python from the contract, int64 exact, one language for all', async () => {
    const create = operation('createPet');
    const sample = () => text(create.locator('[role="tabpanel"]:not([hidden]) pre'));
    const curl = await sample();
    assert.match(curl, new RegExp(`^curl -i -X POST '${server.base}/v1/pets'`));
    assert.ok(curl.includes(`"categoryId":${INT64_MAX}`), curl);
    assert.match(curl, /-H 'Idempotency-Key: 5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55'/);
    await create.locator('[role="tab"][data-language="typescript"]').click();
    const typescript = await sample();
    assert.ok(typescript.includes(`baseUrl: '${server.base}/v1'`), typescript);
    assert.ok(typescript.includes(`categoryId: ${INT64_MAX}n`), typescript);
    assert.ok(typescript.includes("{ idempotencyKey: '5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55' }"), typescript);
    assert.match(
      await text(operation('getPet').locator('[role="tabpanel"]:not([hidden]) pre')),
      /petstore\.getPet\(42n\)/,
    );
    await create.locator('[role="tab"][data-language="python"]').press('ArrowRight');
    assert.match(await sample(), /^curl/, 'ArrowRight from Python wraps to curl');
    await create.locator('[role="tab"][data-language="python"]').click();
    const python = await sample();
    assert.match(python, /response = requests\.post\(/);
    assert.ok(
      python.includes(`json={"name": "Biscuit", "categoryId": ${INT64_MAX}, "status": "available"}`),
      python,
    );
    assert.match(
      await text(operation('listPets').locator('[role="tabpanel"]:not([hidden]) pre')),
      /params=\{"limit": 20\}/,
    );
    assert.match(
      await text(operation('getHealth').locator('[role="tabpanel"]:not([hidden]) pre')),
      /requests\.get\(/,
    );
    await create.locator('[role="tab"][data-language="curl"]').click();
  });

  it('response examples: every one of the operation, chosen from a list, digits intact', async () => {
    const panel = operation('createPet').locator('.response-panel');
    assert.match(await text(panel.locator('pre')), new RegExp(`"categoryId": ${INT64_MAX}`));
    await panel.locator('select').selectOption({ label: '422 · The key was used with another body' });
    assert.match(await text(panel.locator('pre')), /"code": "idempotency_key_reused"/);
  });

  it('copy buttons: every code block has one, and it copies the text', async () => {
    const blocks = await page.locator('pre').count();
    assert.ok(blocks > 40, `${blocks} code blocks`);
    assert.equal(await page.locator('.code-block > pre').count(), blocks);
    const block = operation('listPets').locator('[role="tabpanel"]:not([hidden]) .code-block');
    await block.locator('.copy-button').click();
    await block.locator('.copy-button:has-text("Copied")').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await text(block.locator('pre')));
  });

  it('search: "/" opens it; error codes, fields, operations and guides are found without a request', async () => {
    let requests = 0;
    const count = () => requests++;
    page.on('request', count);
    await page.locator('body').press('/');
    const input = page.locator('#search-input');
    await input.waitFor();
    await input.fill('idempotency_key_reused');
    const first = page.locator('.search-result').first();
    assert.equal(await text(first.locator('.search-title')), 'idempotency_key_reused');
    // Its kind once ("Error code"), where it belongs without repeating it, and what it says.
    assert.equal(await text(first.locator('.search-context')), 'HTTP 422');
    assert.ok(((await text(first.locator('.search-snippet'))) ?? '').length > 10, 'a snippet');
    await input.press('Enter');
    assert.equal(new URL(page.url()).hash, '#error/idempotency_key_reused');
    assert.ok(await page.locator('tr[id="error/idempotency_key_reused"]').isVisible());

    await page.keyboard.press('Control+k');
    await input.fill('categoryId');
    const kinds = await page.locator('.search-result .search-kind').allTextContents();
    assert.ok(kinds.includes('Field'), kinds.join());
    await input.fill('rate limits');
    assert.equal(
      await text(page.locator('.search-result[aria-selected="true"] .search-title')),
      'Rate limits',
    );
    assert.equal(
      await page.locator('.search-result[aria-selected="true"] .search-context').count(),
      0,
      'a guide is not labelled "Guide" twice',
    );
    await input.fill('add a pet');
    await input.press('ArrowDown');
    await input.press('ArrowUp');
    assert.equal(await text(page.locator('.search-result[aria-selected="true"] .search-title')), 'Add a pet');
    await input.press('Enter');
    assert.equal(new URL(page.url()).hash, '#tag/Pets/operation/createPet');

    await page.keyboard.press('Control+k');
    await input.fill('ratelimt');
    assert.equal(await text(page.locator('.search-result').first().locator('.search-title')), 'Rate limits');
    await input.press('Escape');
    await page.locator('.search-dialog').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'search-button');
    page.off('request', count);
    assert.equal(requests, 0, 'searching sends no request');
  });

  it('Try it: POST a pet, list one per page and follow Link to the next page; rate limits in plain words', async () => {
    await setKey(key);
    const create = operation('createPet');
    await create.locator('details.try-it > summary').click();
    assert.equal(await create.locator('input.api-key').inputValue(), key, 'one key for the whole page');
    for (const name of ['Ziggy', 'Zola']) {
      await create
        .locator('textarea.body-editor')
        .fill(`{"name": "${name}", "categoryId": 9223372036854775806, "status": "available"}`);
      await create.locator('button.send').click();
      await create.locator(`.try-it-result .result-body:has-text("${name}")`).waitFor();
    }
    assert.equal(await text(create.locator('.try-it-result [data-status]')), '201');
    assert.match(
      await text(create.locator('.try-it-result .result-body')),
      /"categoryId": 9223372036854775806/,
    );
    assert.match(
      await text(create.locator('.result-words')),
      /requests? of 1,000 left in this minute's window\. It resets at \d\d:\d\d:\d\d UTC, in \d+ seconds?\./,
    );

    const list = operation('listPets');
    await list.locator('details.try-it > summary').click();
    await list.locator('input[name="query:limit"]').fill('1');
    await list.locator('select[name="query:status"]').selectOption('available');
    await list.locator('button.send').click();
    await list.locator('.try-it-result .result-body:has-text("Ziggy")').waitFor();
    await list.locator('.next-button').click();
    await list.locator('.try-it-result .result-body:has-text("Zola")').waitFor();
    assert.match(await text(list.locator('.result-status')), /page 2/);
    await list.locator('[data-last-page]').waitFor();
    assert.equal(await list.locator('.next-button').count(), 0, 'the last page has no Link');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('petstore.docs.apiKey')), key);
  });

  it('Try it: an answer without a next link (a one-page list, a 400) shows no stray text such as "null"', async () => {
    const list = operation('listPets');
    await list.locator('input[name="query:limit"]').fill('100');
    await list.locator('button.send').click();
    await list.locator('.try-it-result [data-status="200"]').waitFor();
    const create = operation('createPet');
    await create.locator('textarea.body-editor').fill('{"name": ""}');
    await create.locator('button.send').click();
    await create.locator('.try-it-result [data-status="400"]').waitFor();
    for (const result of [list, create]) {
      const loose = await result
        .locator('.try-it-result')
        .evaluate((output) =>
          [...output.childNodes].filter((node) => node.nodeType !== 1).map((node) => node.textContent),
        );
      assert.deepEqual(loose, [], 'every line of the result is an element');
      assert.doesNotMatch(await text(result.locator('.try-it-result')), /null/);
    }
    assert.equal(await list.locator('.next-button, [data-last-page]').count(), 0, 'one page: no paging line');
  });

  it('Try it: a 429 says how long to wait, in plain words', async () => {
    await setKey(await server.createKey('enterprise', { perMinute: 1, perDay: 100 }));
    const list = operation('listPets');
    await list.locator('input[name="query:limit"]').fill('');
    await list.locator('button.send').click();
    await list.locator('.try-it-result [data-status="200"]').waitFor();
    await list.locator('button.send').click();
    await list.locator('.try-it-result [data-status="429"]').waitFor();
    assert.match(
      await text(list.locator('.result-words')),
      /Refused: the project's limit, shared by its keys, is used up: wait \d+ seconds? \(Retry-After\), then send again\./,
    );
    assert.match(
      await text(list.locator('.result-words')),
      /The limit is per project, shared by its keys: 1 a minute and 100 a day\./,
    );
    await setKey(key);
  });

  it('Run in this page: the browser build of the typed client runs the TypeScript sample, int64 exact', async () => {
    const create = operation('createPet');
    await create.locator('[role="tab"][data-language="typescript"]').click();
    await create.locator('.run-button').click();
    const created = create.locator('.run-output .run-result');
    await created.waitFor();
    assert.match(await text(created), new RegExp(`"categoryId": ${INT64_MAX}`));
    assert.match(await text(created), /"rateLimit": \{\n\s+"limit": 1000/);
    const list = operation('listPets');
    await list.locator('.run-button').click();
    await list.locator('.run-output .run-result').waitFor();
    assert.match(await text(list.locator('.run-output .run-result')), /"pets": \[/);
    const getPet = operation('getPet');
    await getPet.locator('.run-button').click();
    const refused = getPet.locator('.run-output [data-error]');
    await refused.waitFor();
    assert.equal(
      await refused.getAttribute('data-error'),
      'not_found',
      'the sample asks for pet 42, which does not exist',
    );
    assert.match(await text(refused), /^PetstoreError \(404 not_found\): pet 42 does not exist$/);
    await create.locator('[role="tab"][data-language="curl"]').click();
  });

  it('the page JSON module keeps 64-bit integers through parsing and pretty printing', async () => {
    const result = await page.evaluate(async (moduleUrl) => {
      const json = await import(moduleUrl);
      const value = json.parseLossless('{"id":9223372036854775807,"min":-9223372036854775808,"small":42}');
      return {
        id: String(value.id),
        isBigint: typeof value.id === 'bigint',
        small: value.small,
        pretty: json.stringifyPretty(value),
      };
    }, '/docs/assets/json.js');
    assert.deepEqual(result, {
      id: INT64_MAX,
      isBigint: true,
      small: 42,
      pretty: '{\n  "id": 9223372036854775807,\n  "min": -9223372036854775808,\n  "small": 42\n}',
    });
  });

  it('rate-limit headers in plain words: windows, resets, bans; Link relations parsed', async () => {
    const words = await page.evaluate(async (moduleUrl) => {
      const { parseLink, rateLimitWords, deprecationWords } = await import(moduleUrl);
      const headers = (entries: Record<string, string>) => (name: string) => entries[name] ?? null;
      const now = Date.UTC(2026, 0, 1, 12, 0, 0);
      return {
        ok: rateLimitWords(
          headers({
            'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '1',
            'x-ratelimit-reset': String(now / 1000 + 30),
            ratelimit: '"minute";r=1;t=30',
          }),
          { status: 200, now },
        ),
        day: rateLimitWords(
          headers({
            'x-ratelimit-limit': '1000',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(now / 1000 + 43_200),
            ratelimit: '"day";r=0;t=43200',
            'retry-after': '43200',
          }),
          { status: 429, code: 'rate_limited', now },
        ),
        // This browser's clock a second behind the server's: the server's t, not 61 seconds.
        skewed: rateLimitWords(
          headers({
            'ratelimit-policy': '"minute";q=60;w=60',
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '59',
            'x-ratelimit-reset': String(now / 1000 + 61),
            ratelimit: '"minute";r=59;t=60',
          }),
          { status: 200, now },
        ),
        unsaid: rateLimitWords(
          headers({
            'ratelimit-policy': '"minute";q=60;w=60',
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '59',
            'x-ratelimit-reset': String(now / 1000 + 61),
            ratelimit: '"minute";r=59',
          }),
          { status: 200, now },
        ),
        own: rateLimitWords(
          headers({
            'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400, "key-minute";q=5;w=60',
            'x-ratelimit-limit': '5',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(now / 1000 + 60),
            ratelimit: '"key-minute";r=0;t=60',
            'retry-after': '60',
          }),
          { status: 429, code: 'rate_limited', now },
        ),
        banned: rateLimitWords(headers({ 'retry-after': '900' }), {
          status: 429,
          code: 'temporarily_banned',
          now,
        }),
        none: rateLimitWords(headers({}), { status: 200, now }),
        links: parseLink(
          '</v1/pets?cursor=a>; rel="next", </docs#x>; rel="deprecation"; type="text/html", </v1/pets>; rel=successor-version',
        ),
        deprecated: deprecationWords(
          headers({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }),
        ),
      };
    }, '/docs/assets/response-words.js');
    assert.deepEqual(words, {
      ok: [
        'The limit is per project, shared by its keys: 60 a minute and 1,000 a day.',
        "1 request of 60 left in this minute's window. It resets at 12:00:30 UTC, in 30 seconds.",
      ],
      day: [
        "0 requests of 1,000 left in this day's window. It resets at 00:00:00 UTC, in 12 hours.",
        "Refused: the project's limit, shared by its keys, is used up: wait 12 hours (Retry-After), then send again.",
      ],
      skewed: [
        'The limit is per project, shared by its keys: 60 a minute.',
        "59 requests of 60 left in this minute's window. It resets at 12:01:01 UTC, in 60 seconds.",
      ],
      unsaid: [
        'The limit is per project, shared by its keys: 60 a minute.',
        "59 requests of 60 left in this minute's window. It resets at 12:01:01 UTC, in 60 seconds.",
      ],
      own: [
        'The limit is per project, shared by its keys: 60 a minute and 1,000 a day.',
        "This key's own limit: 5 a minute.",
        "0 requests of 5 left in this key's own minute window. It resets at 12:01:00 UTC, in 60 seconds.",
        "Refused for being over this key's own limit: wait 60 seconds (Retry-After), then send again. Sending while refused counts toward a temporary ban.",
      ],
      banned: [
        'This key is banned for sending while it was over its own limit: wait 15 minutes (Retry-After) before sending again.',
      ],
      none: [],
      links: { next: '/v1/pets?cursor=a', deprecation: '/docs#x', 'successor-version': '/v1/pets' },
      deprecated:
        'This operation is deprecated and stops working on Thu, 05 Dec 2030 00:00:00 GMT (Sunset); its successor is /v1/pets.',
    });
  });

  it('a link to an operation scrolls to it once rendered, below the top bar', async () => {
    await page.goto('about:blank');
    await load(page, `${server.base}/docs#tag/Pets/operation/getPet`);
    const top = await page
      .locator('section[id="tag/Pets/operation/getPet"]')
      .evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(top >= 50 && top < 90, `getPet starts just under the top bar (top = ${top})`);
  });

  it('nothing went wrong: no console error, failed or foreign request', () => {
    assert.deepEqual(browser.problems, []);
  });
});
