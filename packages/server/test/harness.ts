import { inject } from 'light-my-request';
import { request as httpRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../src/app.ts';
import { generateKey } from '../src/auth/keys.ts';
import type { CorsPolicy } from '../src/http/cors.ts';
import { parseJson, stringifyJson as toJson } from '@petstore/json';
import { createRateLimiter, type RateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import type { Plan } from '../src/storage/records.ts';
import { FakeClock } from '../src/time/clock.ts';
import { copyMigratedSqlite } from './migrated-sqlite.ts';
import { TEST_PASSWORD_PARAMS, TEST_PASSWORD_STRENGTH } from './password-settings.ts';
import { assertMatchesContract } from './openapi-validator.ts';
import { type InternalListener, listenInternal } from '../src/http/internal-listener.ts';

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed with integers as bigint. */
  json(): unknown;
}

export interface RequestOptions {
  method?: string;
  url: string;
  /** API key to send as a bearer token; null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  /** Skip the OpenAPI check (only for requests the contract deliberately does not describe). */
  unchecked?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  storage: Store;
  clock: FakeClock;
  limiter: RateLimiter;
  /** A business-plan key created at start (1,000 requests a minute: tests rarely meet its limit). */
  key: string;
  createKey(
    plan?: Plan,
    limits?: { perMinute?: number; perDay?: number; expiresAt?: number },
  ): Promise<{ secret: string; id: string }>;
  request(options: RequestOptions): Promise<TestResponse>;
  /** A project (free plan unless told) with a member account signed in: its cookie and CSRF token. */
  signedInMember(slug: string, options?: { plan?: Plan; email?: string }): Promise<SignedIn>;
  /** A request on the internal listener (started at the first call), as the TLS proxy sends it. */
  internal(path: string, method?: string): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface SignedIn {
  accountId: string;
  projectId: string;
  /** `petstore_session=…`, for a Cookie header. */
  cookie: string;
  csrfToken: string;
}

export { TEST_PASSWORD_PARAMS, TEST_PASSWORD_STRENGTH } from './password-settings.ts';

export { stringifyJson as toJson } from '@petstore/json';

/** A concrete path for a route of the table: parameters filled with values that exist. */
export const concretePath = (url: string): string =>
  url
    .replace(':petId', '1')
    .replace(':name', 'styles.css')
    .replace(':slug', 'acme')
    .replace(':keyId', 'key_0000000000000000')
    .replace('*', 'anything');

/** When the fake clock of a test app starts unless told. */
export const TEST_START = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The app in-process on a fresh SQLite file, an in-memory limiter and a fake clock. */
export async function makeTestApp(
  options: {
    clock?: FakeClock;
    storage?: Store;
    /** A SQLite file the app's database starts as a copy of (default: a freshly migrated one). */
    copyOf?: string;
    banThreshold?: number;
    trustProxy?: boolean;
    hosts?: AppDeps['hosts'];
    publicBaseUrl?: string;
    cors?: CorsPolicy;
    /** Where custom domains are looked up: a test zone server (default: the system's resolvers). */
    dns?: AppDeps['dns'];
    /** Where new passwords' strength is checked (default: `TEST_PASSWORD_STRENGTH`). */
    passwordStrength?: AppDeps['passwordStrength'];
    /** The password checks' gate (default: the production limits). */
    hashingGate?: AppDeps['hashingGate'];
    /** Collects the app's JSON log lines (info and above, unless `logLevel` says otherwise). */
    logLines?: string[];
    logLevel?: string;
    /** The request log's settings (default: on, with its defaults). */
    requestLog?: AppDeps['requestLog'];
    /** How often the change feed is read unasked (default: production's). */
    changePollMs?: number;
    /** Timeouts and connection caps of the HTTP server (default: production's). */
    httpLimits?: AppDeps['httpLimits'];
    /** Where mails go (default: the log); `test/mail-sink.ts` gives a loopback SMTP server's mailer. */
    mailer?: AppDeps['mailer'];
    mailRetryDelaysMs?: AppDeps['mailRetryDelaysMs'];
    mailOutboxCap?: AppDeps['mailOutboxCap'];
    mailPollMs?: AppDeps['mailPollMs'];
    /** Each management API access token's rate limits (default: production's). */
    manageTokenLimits?: AppDeps['manageTokenLimits'];
    /** Each account's ceiling across its access tokens (default: production's). */
    manageAccountLimits?: AppDeps['manageAccountLimits'];
    /** The caps of exports streaming at once (default: this app's alone). */
    exportSlots?: AppDeps['exportSlots'];
  } = {},
): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-test-'));
  let storage = options.storage;
  if (storage === undefined) {
    if (options.copyOf) await copyFile(options.copyOf, join(dir, 'petstore.db'));
    else await copyMigratedSqlite(join(dir, 'petstore.db'));
    storage = await openStoreAt(join(dir, 'petstore.db'));
  }
  await storage.migrate();
  const clock = options.clock ?? new FakeClock(TEST_START);
  const limiter = createRateLimiter({
    store: createMemoryStore(),
    clock,
    banThreshold: options.banThreshold,
  });
  const app = buildApp({
    storage,
    limiter,
    clock,
    keyEnvironment: 'test',
    passwordParams: TEST_PASSWORD_PARAMS,
    passwordStrength: options.passwordStrength ?? TEST_PASSWORD_STRENGTH,
    trustProxy: options.trustProxy,
    hosts: options.hosts,
    publicBaseUrl: options.publicBaseUrl,
    cors: options.cors,
    dns: options.dns,
    hashingGate: options.hashingGate,
    requestLog: options.requestLog,
    changePollMs: options.changePollMs,
    httpLimits: options.httpLimits,
    mailer: options.mailer,
    mailRetryDelaysMs: options.mailRetryDelaysMs,
    mailOutboxCap: options.mailOutboxCap,
    mailPollMs: options.mailPollMs,
    manageTokenLimits: options.manageTokenLimits,
    manageAccountLimits: options.manageAccountLimits,
    exportSlots: options.exportSlots,
    logger: options.logLines && {
      level: options.logLevel ?? 'info',
      stream: { write: (line: string) => void options.logLines!.push(line) },
    },
  });
  await app.ready();

  const createKey: TestApp['createKey'] = async (plan = 'free', limits = {}) => {
    const { secret, id, digest } = generateKey('test');
    await storage.keys.create({
      id,
      digest,
      plan,
      perMinute: limits.perMinute ?? null,
      perDay: limits.perDay ?? null,
      label: null,
      environment: 'test',
      createdAt: clock.now(),
      expiresAt: limits.expiresAt ?? null,
    });
    return { secret, id };
  };
  const { secret: key } = await createKey('business');

  const request = async (req: RequestOptions): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...req.headers };
    const token = req.key === undefined ? key : req.key;
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = typeof req.body === 'string' ? req.body : toJson(req.body);
      headers['content-type'] ??= 'application/json';
    }
    // A request from a socket starts a new event-loop turn; inject would otherwise run in the caller's.
    await new Promise((resolve) => setImmediate(resolve));
    // Through app.dispatch, as the server's requests go: the API's lane first, then the framework.
    await app.ready();
    const response = await inject(app.dispatch, {
      method: (req.method ?? 'GET') as 'GET',
      url: req.url,
      headers,
      payload,
    });
    const result: TestResponse = {
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
      body: response.body,
      json: () => parseJson(response.body),
    };
    if (!req.unchecked) {
      assertMatchesContract({
        method: req.method ?? 'GET',
        path: req.url,
        status: result.status,
        headers: result.headers,
        body: result.body,
      });
    }
    return result;
  };

  const signedInMember: TestApp['signedInMember'] = async (slug, options = {}) => {
    const suffix = randomBytes(4).toString('hex');
    const accountId = `acc_${suffix}`;
    await storage.accounts.create({
      id: accountId,
      email: options.email ?? `member-${suffix}@example.com`,
      passwordHash: 'scrypt$unused',
      createdAt: clock.now(),
    });
    const project =
      (await storage.projects.bySlug(slug)) ??
      (await storage.projects.create({
        id: `prj_${slug}`,
        slug,
        name: `Project ${slug}`,
        plan: options.plan ?? 'free',
        perMinute: null,
        perDay: null,
        createdAt: clock.now(),
      }))!;
    await storage.projects.addMember(accountId, project.id, clock.now());
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await storage.accounts.createSession({
      idDigest: createHash('sha256').update(token).digest('hex'),
      accountId,
      csrfToken,
      createdAt: clock.now(),
      expiresAt: clock.now() + 86_400_000,
    });
    return { accountId, projectId: project.id, cookie: `petstore_session=${token}`, csrfToken };
  };

  let internalListener: Promise<InternalListener> | undefined;
  const internal: TestApp['internal'] = async (path, method = 'GET') => {
    internalListener ??= listenInternal(app, { host: '127.0.0.1', port: 0 });
    const { port } = new URL((await internalListener).url);
    return new Promise((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, method }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers as Record<string, string>,
            body,
            json: () => parseJson(body),
          }),
        );
      })
        .on('error', reject)
        .end();
    });
  };

  return {
    app,
    storage,
    clock,
    limiter,
    key,
    createKey,
    request,
    signedInMember,
    internal,
    async close() {
      await (await internalListener)?.close();
      await app.close();
      await limiter.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
