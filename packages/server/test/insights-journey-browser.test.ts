import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { cleanEnv, killAll, runCli, type ServerProcess, startServe } from './blackbox-process.ts';
import { launchChromium, skipWithoutBrowser } from './docs-browser.ts';
import { eventually } from './eventually.ts';
import { service } from './services.ts';

const OWNER_PASSWORD = 'a long owner password';
const VIEWER_PASSWORD = 'a long viewer password';

let dir: string;
let env: NodeJS.ProcessEnv;
let server: ServerProcess;
const children = new Set<ChildProcess>();
const contexts: BrowserContext[] = [];

const cli = async (...args: string[]) => {
  const result = await runCli(args, env);
  assert.equal(result.code, 0, `petstore ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};

const postgres = await service('postgres');
const redis = await service('redis');

/** The server's database and environment for one run: a SQLite file, or PostgreSQL and Redis. */
interface Store {
  name: string;
  skip?: string;
  /** The environment's database settings, made before the run; dropped by `drop`. */
  create(): Promise<Record<string, string>>;
  drop(): Promise<void>;
}

const sqlite: Store = {
  name: 'SQLite',
  create: async () => ({ DATABASE_URL: join(dir, 'petstore.db') }),
  drop: async () => {},
};

const database = `petstore_journey_${randomBytes(4).toString('hex')}`;
const adminQuery = async (text: string) => {
  const client = new pg.Client({ connectionString: 'url' in postgres ? postgres.url : '' });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
};
const postgresAndRedis: Store = {
  name: 'PostgreSQL and Redis',
  skip: 'skip' in postgres ? postgres.skip : 'skip' in redis ? redis.skip : undefined,
  async create() {
    await adminQuery(`CREATE DATABASE ${database}`);
    const url = new URL('url' in postgres ? postgres.url : '');
    url.pathname = `/${database}`;
    return { DATABASE_URL: url.href, REDIS_URL: 'url' in redis ? redis.url : '' };
  },
  drop: () => adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
};

async function start(store: Store): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'petstore-journey-'));
  env = cleanEnv(await store.create());
  await cli('migrate');
  await cli('projects', 'create', '--name', 'Acme Docs', '--slug', 'acme', '--plan', 'pro');
  assert.equal(
    (await runCli(['admin', 'create', '--email', 'owner@example.com'], env, { input: `${OWNER_PASSWORD}\n` }))
      .code,
    0,
  );
  await cli('admin', 'add-member', '--email', 'owner@example.com', '--project', 'acme', '--role', 'owner');
  server = await startServe(env, children);
}

async function stop(store: Store): Promise<void> {
  for (const context of contexts.splice(0)) await context.close();
  killAll(children);
  await store.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

async function browserPage(name: string): Promise<Page> {
  const { context, page } = await launchChromium(join(dir, name), { timeoutMs: 30_000 });
  contexts.push(context);
  return page;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

/** An API call with the key: its status and X-Request-Id. */
async function call(key: string, path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return { status: response.status, id: response.headers.get('x-request-id')! };
}

// What an owner does to see what the project's consumers do, end to end through a real server, the
// command line and Chromium (docs/insights.md).
for (const store of [sqlite, postgresAndRedis]) {
  describe(store.name, () => {
    before(() => (store.skip || skipWithoutBrowser ? undefined : start(store)));
    after(() => (store.skip || skipWithoutBrowser ? undefined : stop(store)));
    test(
      'an owner finds API calls by request id in the Requests tab and petstore logs, reads the usage chart and Activity, and invites a viewer who cannot create keys or add domains',
      { skip: skipWithoutBrowser || store.skip },
      async (t) => {
        const owner = await browserPage('owner');
        await signIn(owner, 'owner@example.com', OWNER_PASSWORD);
        let key = '';
        const calls: { status: number; id: string }[] = [];
        let allowed = 1;

        await t.test(
          'the owner creates a key in the dashboard; it answers 2xx, 400, 404 and finally 429',
          async () => {
            await owner.goto(`${server.url}/dashboard/projects/acme/keys`);
            await owner.getByLabel(/Label/).fill('Journey');
            await owner.getByRole('button', { name: 'Create key' }).click();
            key = ((await owner.locator('#new-secret').textContent()) ?? '').trim();
            assert.match(key, /^ps_test_/);
            calls.push(await call(key, '/v1/pets'));
            calls.push(await call(key, '/v1/pets?limit=0'));
            calls.push(await call(key, '/v1/pets/987654321'));
            let last = calls[0]!;
            for (let i = 0; i < 1_000 && last.status !== 429; i++) {
              last = await call(key, '/v1/pets');
              if (last.status === 200) allowed++;
            }
            calls.push(last);
            assert.deepEqual(
              calls.map((c) => c.status),
              [200, 400, 404, 429],
            );
          },
        );

        await t.test(
          'each call is found by its request id in the Requests tab, with its status',
          async () => {
            for (const { status, id } of calls) {
              // Written in batches off the request path: the row shows within a fraction of a second.
              await eventually(async () => {
                await owner.goto(`${server.url}/dashboard/projects/acme/requests`);
                await owner.getByLabel('Request id').fill(id);
                await owner.getByRole('button', { name: 'Show' }).click();
                return (await owner.locator('tbody tr', { hasText: id }).count()) === 1;
              }, 100);
              const row = owner.locator('tbody tr', { hasText: id });
              assert.match(
                (await row.locator('[data-label="Status"]').textContent()) ?? '',
                new RegExp(`^\\s*${status}\\b`),
              );
            }
            // The last one shown is the 429: its detail names the error code.
            await owner.locator('tbody tr a').first().click();
            await owner.waitForURL(/\/dashboard\/projects\/acme\/requests\/[^/?]+$/);
            const detail = (await owner.locator('main').textContent()) ?? '';
            assert.ok(detail.includes('rate_limited') && detail.includes(calls[3]!.id), detail);
          },
        );

        await t.test('petstore logs --json lists the same calls', async () => {
          const logged = JSON.parse(await cli('logs', '--project', 'acme', '--limit', '1000', '--json')) as {
            requestId: string;
            status: number;
          }[];
          for (const { status, id } of calls) {
            assert.deepEqual(
              logged.filter((entry) => entry.requestId === id).map((entry) => entry.status),
              [status],
              `request ${id}`,
            );
          }
        });

        await t.test('the Overview shows the usage chart as an SVG with the counts', async () => {
          await owner.goto(`${server.url}/dashboard/projects/acme`);
          const chart = owner.locator('svg[role="img"]').first();
          await chart.waitFor();
          assert.equal(
            await chart.locator('title').first().textContent(),
            'Requests per hour, last 24 hours',
          );
          assert.match(
            (await chart.locator('desc').textContent()) ?? '',
            new RegExp(`^${allowed + 3} requests: ${allowed} 2xx, 2 4xx, 1 429, 0 5xx\\.`),
          );
          await owner.getByText('The numbers behind the chart').first().click();
          const numbers = owner
            .getByRole('region', { name: /Requests per hour.*numbers/ })
            .locator('tbody tr');
          const busy = numbers.filter({ hasText: String(allowed) });
          assert.equal(await busy.count(), 1, 'the table behind the chart holds the same counts');
        });

        await t.test('Activity shows the key the owner created', async () => {
          await owner.goto(`${server.url}/dashboard/projects/acme/activity`);
          const activity = (await owner.locator('main').textContent())?.replace(/\s+/g, ' ') ?? '';
          assert.match(activity, /owner@example\.com Created a key “Journey” \(ps_test_/);
        });

        await t.test(
          'a viewer invited with admin invite joins through the link and cannot create keys or add domains',
          async () => {
            const printed = await cli(
              'admin',
              'invite',
              '--email',
              'viewer@example.com',
              '--project',
              'acme',
              '--role',
              'viewer',
              '--base-url',
              server.url,
            );
            const link = printed.trim().split('\n').at(-1)!;
            const viewer = await browserPage('viewer');
            await viewer.goto(link);
            await viewer.getByLabel('Password', { exact: true }).fill(VIEWER_PASSWORD);
            await viewer.getByLabel('Repeat the password').fill(VIEWER_PASSWORD);
            await viewer.getByRole('button', { name: 'Create account and join' }).click();
            await viewer
              .getByRole('heading', { name: /Acme Docs/ })
              .first()
              .waitFor();
            await viewer.goto(`${server.url}/dashboard/projects/acme/keys`);
            assert.equal(
              await viewer.getByRole('button', { name: 'Create key' }).count(),
              0,
              'no Create key for a viewer',
            );
            await viewer.goto(`${server.url}/dashboard/projects/acme/domains`);
            assert.equal(
              await viewer.getByRole('button', { name: /Add domain/ }).count(),
              0,
              'no Add domain for a viewer',
            );
            // The forms' actions refuse a viewer too, whatever the page shows.
            const token = await viewer.locator('input[name="_csrf"]').first().inputValue();
            const post = async (path: string, form: Record<string, string>) => {
              const response = await viewer.request.post(`${server.url}${path}`, {
                form: { _csrf: token, ...form },
                maxRedirects: 0,
              });
              const message = /<main[^>]*>.*?<p>([^<]*)<\/p>/s.exec(await response.text())?.[1];
              return `${response.status()} ${message}`;
            };
            const refused = [
              await post('/dashboard/projects/acme/keys', { label: 'sneaky' }),
              await post('/dashboard/projects/acme/domains', { hostname: 'docs.example.com' }),
            ];
            assert.deepEqual(refused, [
              '403 You are a viewer of acme: this needs a developer or an owner',
              '403 You are a viewer of acme: this needs an owner',
            ]);
          },
        );
      },
    );
  });
}
