import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { generateKey } from '../src/auth/keys.ts';
import { createRateLimiter, type RateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import type { Plan } from '../src/storage/records.ts';
import { systemClock } from '../src/time/clock.ts';

const CHROMIUM = '/usr/bin/chromium';
const MISSING = `${CHROMIUM} is missing: install Debian's chromium with \`bash scripts/ensure-chromium.sh\``;
const hasChromium = existsSync(CHROMIUM);

/** The skip reason of a browser test: none when Chromium is there or required (CI), else why not. */
export const skipWithoutBrowser =
  !hasChromium && process.env.PETSTORE_REQUIRE_BROWSER !== '1' ? MISSING : false;

export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  tablet: { width: 820, height: 1180 },
  phone: { width: 390, height: 844 },
} as const;

/** The real app on a port (SQLite file, in-memory limiter, real clock), as the docs page meets it. */
export interface DocsServer {
  app: FastifyInstance;
  storage: Store;
  base: string;
  dir: string;
  createKey(plan?: Plan, limits?: { perMinute: number; perDay: number }): Promise<string>;
  close(): Promise<void>;
}

export async function startDocsServer(): Promise<DocsServer> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-docs-'));
  const storage: Store = await openStoreAt(join(dir, 'petstore.db'));
  await storage.migrate();
  const limiter: RateLimiter = createRateLimiter({ store: createMemoryStore(), clock: systemClock });
  const app = buildApp({ storage, limiter, clock: systemClock, keyEnvironment: 'test' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    storage,
    base,
    dir,
    async createKey(plan = 'business', limits) {
      const { secret, id, digest } = generateKey('test');
      await storage.keys.create({
        id,
        digest,
        plan,
        perMinute: limits?.perMinute ?? null,
        perDay: limits?.perDay ?? null,
        label: 'docs page test',
        environment: 'test',
        createdAt: Date.now(),
        expiresAt: null,
      });
      return secret;
    },
    async close() {
      await app.close();
      await limiter.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors, failed or refused requests, requests leaving the allowed origins. */
  problems: string[];
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /** Flags added to the common ones (for example `--host-resolver-rules=…`). */
  args?: string[];
  /** For certificates of a test CA whose chain another test checks. */
  ignoreHTTPSErrors?: boolean;
  /** Playwright's default timeout of each action (default 10 s). */
  timeoutMs?: number;
}

/** Debian's Chromium, headless, with a fresh profile in `profile` and the flags every browser test uses. */
export async function launchChromium(
  profile: string,
  {
    viewport = VIEWPORTS.desktop,
    args = [],
    ignoreHTTPSErrors = false,
    timeoutMs = 10_000,
  }: LaunchOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  if (!hasChromium) throw new Error(MISSING);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    ignoreHTTPSErrors,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
  context.setDefaultTimeout(timeoutMs);
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

/** Debian's Chromium with a fresh profile; every request must stay on `origins`. */
export async function openBrowser(
  profile: string,
  origins: string[],
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
): Promise<Browser> {
  const { context, page } = await launchChromium(profile, { viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every 4xx/5xx answer as an error; the API's are what Try it is for.
    const apiAnswer =
      message.text().startsWith('Failed to load resource') && message.location().url.includes('/v1/');
    if (!apiAnswer) problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const why = request.failure()?.errorText;
    // ERR_ABORTED is the browser's own cancel (the page moved on while a script still loaded), never
    // the server's failure: a refused or reset connection has errors of its own.
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${why}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !origins.some((origin) => url.startsWith(`${origin}/`))) {
      problems.push(`external request: ${url}`);
    }
  });
  return { context, page, problems };
}

/** Opens `url` afresh (never as a jump within the page already shown) and waits until it has rendered. */
export async function load(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('body[data-state="ready"]');
}
