import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { HashingGate } from './features/identity/hashing-gate.ts';
import type { ScryptParams } from './features/identity/passwords.ts';
import type { StrengthPool } from './features/identity/strength-pool.ts';
import { createAuthenticator } from './auth/authenticator.ts';
import { createKeyUsage } from './auth/key-usage.ts';
import type { KeyEnvironment } from './auth/keys.ts';
import { createDashboardPlugin, isDashboardRoute } from './dashboard/plugin.ts';
import { createManagePlugin } from './manage/plugin.ts';
import { deferredDomains } from './features/domains/deferred.ts';
import { type AccessTokenService, createAccessTokenService } from './features/access-tokens/service.ts';
import { createIdentityChanges } from './features/identity/identity-changes.ts';
import type { ChangeFeed } from './changes/feed.ts';
import type { Limits } from './ratelimit/plans.ts';
import type { ProbeAddress } from './features/domains/certificate.ts';
import { createDnsResolver, type DnsResolver } from './features/domains/dns.ts';
import { type AnsweredRequest, answeredOf } from './http/answered.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { type CorsPolicy, NO_ORIGINS } from './http/cors.ts';
import { installEdge } from './http/edge.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { type AdmitDeps, installGuard } from './http/guard.ts';
import { hostKindConstraint, type HostRules, requestHostKind } from './http/host-kind.ts';
import { BODY_LIMIT_BYTES, installJsonBody } from './http/json-body.ts';
import {
  DEFAULT_HTTP_LIMITS,
  type HttpLimits,
  MAX_HEADER_BYTES,
  TIMEOUT_CHECK_INTERVAL_MS,
} from './http/limits.ts';
import { installNotFound } from './http/not-found.ts';
import { createOtherMethods } from './http/other-methods.ts';
import { routeConfig } from './http/route-config.ts';
import { createRequestIds, requestIdReader } from './http/request-ids.ts';
import { requestLine } from './http/request-log.ts';
import { rewriteRequestTarget } from './http/request-target.ts';
import { keepForwardedAddresses } from './http/client-origin.ts';
import { trustedProxyMatcher } from './http/trusted-proxies.ts';
import type { ServiceNames } from './http/service-names.ts';
import { loggedRequest } from './features/requests/logged-request.ts';
import {
  createRequestLogWriter,
  type RequestLogWriter,
  type RequestLogWriterOptions,
} from './features/requests/request-log-writer.ts';
import type { Family } from './metrics/exposition.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { publicContract } from './openapi/contract.ts';
import type { RateLimiter } from './ratelimit/limiter.ts';
import { createApiArea } from './routes/api-plugin.ts';
import type { RouteTable } from './routes/area.ts';
import type { AreaRouterOptions } from './routes/area-router.ts';
import { createInternalArea } from './routes/internal-plugin.ts';
import { SERVICE_LINK } from './routes/service-link.ts';
import { contractRoutes, NON_CONTRACT_ROUTES, type RouteSpec, withHandlers } from './routes/table.ts';
import { createSitesArea } from './routes/sites-plugin.ts';
import type { Store } from './features/store.ts';
import { configuredOrigin } from './config.ts';
import { createLogMailer } from './mail/log-mailer.ts';
import type { Mailer } from './mail/mailer.ts';
import { createOutbox, OUTBOX_LEASE_TTL_MS, type Outbox } from './mail/outbox.ts';
import { createLease } from './maintenance/lease.ts';
import { DEFAULT_MAIL_FROM } from './mail/settings.ts';
import { createExportSlots, type ExportSlots } from './features/requests/export-slots.ts';
import type { Clock } from './time/clock.ts';
import { sendErrorAsPage } from './web/error-page.ts';
import { named } from './http/plugin-name.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route the app answers, with its configuration (for tooling and tests): the areas
     * registered on their first request included, the management API's read from its contract
     * when this is first read.
     */
    routeTable: readonly RouteSpec[];
  }
}

export interface AppDeps {
  storage: Store;
  limiter: RateLimiter;
  clock: Clock;
  /** Which keys are accepted: `live` in production, `test` elsewhere. */
  keyEnvironment: KeyEnvironment;
  logger?: FastifyServerOptions['logger'];
  /** Honour X-Forwarded-For from these proxies: true, or a comma list of addresses and CIDR ranges. */
  trustProxy?: boolean | string;
  /** This process's metrics; by default the app makes its own. */
  metrics?: Metrics;
  /** What /metrics reports; by default this process's metrics (a cluster worker reports every worker's). */
  gatherMetrics?: () => Promise<Family[]>;
  /** On the first getPet, read existing pets into memory in the background (then getPet needs no query). */
  warmPetCache?: boolean;
  /** Which hosts are the API's and which the projects' docs sites (default: sites under `sites.localhost`). */
  hosts?: { siteDomain: string; apiHost?: string };
  /** The address clients use for the API (PUBLIC_BASE_URL): where the docs sites' try-it sends requests. */
  publicBaseUrl?: string;
  /** Password hashing cost; tests lower it, production keeps the default. */
  passwordParams?: ScryptParams;
  /** Where new passwords' strength is checked (default: a worker thread at the lowest priority). */
  passwordStrength?: Pick<StrengthPool, 'check'>;
  /** Bounds and orders the password checks (default: HASHING_LIMITS); tests hold its slots. */
  hashingGate?: HashingGate;
  /** The key sealing TOTP secrets (PETSTORE_TWO_FACTOR_KEY); by default one kept in the database. */
  twoFactorKey?: Buffer;
  /** Where custom domains are looked up (PETSTORE_DNS_SERVERS); by default the system's resolvers. */
  dns?: DnsResolver;
  /** The CAA identity of the CA that issues the custom domains' certificates (default `letsencrypt.org`). */
  caIdentity?: string;
  /** Custom domains an Enterprise project may have (PETSTORE_ENTERPRISE_DOMAINS, default 200). */
  enterpriseDomains?: number;
  /** The TLS proxy, asked for each verified domain's certificate (PETSTORE_TLS_PROBE); unset: not shown. */
  tlsProbe?: ProbeAddress;
  /** Which browser origins may read responses (CORS); by default none. */
  cors?: CorsPolicy;
  /** /readyz fails below this much free space where the database is stored (default 64 MB; 0: no check). */
  minFreeDiskBytes?: number;
  /** Timeouts and connection caps of the HTTP server (DEFAULT_HTTP_LIMITS when absent). */
  httpLimits?: HttpLimits;
  /** The request log's buffer and batches (REQUEST_LOG_DEFAULTS when absent); false: nothing is logged. */
  requestLog?: false | Partial<Omit<RequestLogWriterOptions, 'store' | 'onError'>>;
  /** The log line of one answer below 400 in this many (LOG_SAMPLE, default 1: every answer). */
  logSample?: number;
  /** How often the change feed of projects and domains is read unasked (default CHANGE_POLL_MS). */
  changePollMs?: number;
  /** Where mails go (default: the log, one JSON line each); the outbox sends them off the request path. */
  mailer?: Mailer;
  /** The sender the log's mails name when no mailer is given (PETSTORE_MAIL_FROM). */
  mailFrom?: string;
  /** Waits between attempts at a mail (default MAIL_RETRY_DELAYS_MS); tests shorten them. */
  mailRetryDelaysMs?: readonly number[];
  /** Mails queued at once before new ones are refused (default MAX_QUEUED_MAILS); tests lower it. */
  mailOutboxCap?: number;
  /** How often the outbox looks for mail due (default OUTBOX_POLL_MS). */
  mailPollMs?: number;
  /**
   * The origin links in mails start with; by default PUBLIC_BASE_URL's, else https://<API host>, else
   * the request's own (only where neither is configured: development and tests).
   */
  linkOrigin?: () => string | undefined;
  /**
   * The caps of exports streaming at once (server.ts shares them through REDIS_URL); by default this
   * instance's alone.
   */
  exportSlots?: ExportSlots;
  /** Each management API access token's rate limits (default MANAGE_TOKEN_LIMITS). */
  manageTokenLimits?: Limits;
  /** Each account's ceiling across all its access tokens (default MANAGE_ACCOUNT_LIMITS). */
  manageAccountLimits?: Limits;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers the mails queued in the outbox table, and names the mailer in use. */
    outbox: Outbox;
    /** The request log's writer; undefined when logging is off. */
    requestLog: RequestLogWriter | undefined;
    /** The management API's access tokens: the one service of every door (dashboard, guard). */
    accessTokens: AccessTokenService;
    /** The change feed this instance follows (its caches of hosts, keys and tokens). */
    changeFeed: ChangeFeed;
  }
}

const noSchemas = (): never => {
  throw new Error('routes carry no Fastify schema: inputs are checked by validation/ against the contract');
};
const NO_SCHEMA_COMPILERS = { buildValidator: () => noSchemas, buildSerializer: () => noSchemas };

/** Builds the application; it never listens (server.ts does). */
export function buildApp(deps: AppDeps): FastifyInstance {
  const siteDomain = deps.hosts?.siteDomain ?? 'sites.localhost';
  const apiHost = deps.hosts?.apiHost;
  const names: ServiceNames = { siteDomain, apiHosts: apiHost ? [apiHost] : [] };
  const sites = createSitesArea({
    storage: deps.storage,
    names,
    clock: deps.clock,
    // The app's logger, once the app exists (nothing is logged before it does).
    log: { warn: (obj, msg) => app.log.warn(obj, msg), info: (obj, msg) => app.log.info(obj, msg) },
    publicBaseUrl: deps.publicBaseUrl,
    changePollMs: deps.changePollMs,
  });
  const hosts: HostRules = { names, custom: sites.routing.custom, prepare: sites.routing.prepare };
  const limits = deps.httpLimits ?? DEFAULT_HTTP_LIMITS;
  const metrics = deps.metrics ?? createMetrics({ storage: deps.storage, limiter: deps.limiter });
  const requestId = requestIdReader(createRequestIds(() => deps.clock.now()));
  const app = Fastify({
    logger: deps.logger ?? false,
    // One line per request is written by the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A parameter can never exceed the router's limit (the request line cannot), so no long id meets
    // Fastify's own 414: over-long targets are refused by the guard, with the Error body. The host
    // kind constraint routes the API host, the projects' sites and anything else apart.
    routerOptions: { maxParamLength: MAX_HEADER_BYTES, constraints: { hostKind: hostKindConstraint(hosts) } },
    rewriteUrl: rewriteRequestTarget,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustProxy ?? false,
    // While closing, requests still arriving on open connections are served (with Connection: close)
    // rather than refused: the database stays open until the server has closed.
    return503OnClosing: false,
    genReqId: requestId,
    // Socket inactivity at any stage (a client that stops reading its answer, for one) ends at the
    // request timeout; headers and whole requests have their own deadlines below.
    connectionTimeout: limits.requestTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
      // A missing Host, and a header sent twice, are decided by the guard (requestShapeProblem, and
      // a doubled Authorization is no valid key) instead of a bare 400 or a silent "first one wins".
      requireHostHeader: false,
      joinDuplicateHeaders: true,
      // A request without Content-Length or Transfer-Encoding has no body: it comes with its stream
      // already ended, so Node runs no stream events for it ('end' and 'close' are never emitted; a
      // pipelining flood makes some 1,500 of them from one read). Nothing here listens to a request's
      // own stream but the lane's body reader, for creates with a Content-Length.
      optimizeEmptyRequests: true,
    },
    clientErrorHandler: clientErrorHandler(metrics.http),
    // Inputs are checked against the contract by validation/ and answers are written by the handlers, so
    // no route has a Fastify schema: without these, Fastify loads Ajv and fast-json-stringify (about 115
    // modules) at start-up for nothing.
    schemaController: { compilersFactory: NO_SCHEMA_COMPILERS },
  });
  // First of all hooks, before anything reads request.ip: X-Forwarded-For entries that are no address are dropped.
  if (deps.trustProxy) {
    app.addHook('onRequest', (request, _reply, done) => {
      keepForwardedAddresses(request.raw);
      done();
    });
  }
  const connections = installEdge(app, {
    limits,
    exempt: trustedProxyMatcher(deps.trustProxy ?? false),
    log: app.log,
    metrics: metrics.http,
  });
  metrics.observeConnections(connections);

  const authenticator = createAuthenticator({
    keys: deps.storage.keys,
    clock: deps.clock,
    environment: deps.keyEnvironment,
    feed: sites.feed,
    writeMark: () => deps.storage.changeToken() ?? deps.storage.ownWrites(),
  });
  const usage = createKeyUsage({
    keys: deps.storage.keys,
    onError: (error) => app.log.warn({ err: error }, 'the last use of a key could not be recorded'),
  });
  app.addHook('onClose', async () => usage.flush());
  app.addHook('onClose', async () => metrics.close());
  app.addHook('onReady', (done) => {
    sites.feed.start();
    done();
  });
  metrics.observeHostLookups(() => sites.directory.failures().total);
  const requestLog =
    deps.requestLog === false
      ? undefined
      : createRequestLogWriter({
          ...deps.requestLog,
          store: deps.storage.requestLog,
          onError: (error, rows) =>
            app.log.warn({ err: error, rows }, 'request log rows could not be written'),
          onDropped: ({ rows, projects }) =>
            app.log.warn({ rows, projects }, 'request log rows dropped: the buffer was full'),
        });
  app.decorate('requestLog', requestLog);
  if (requestLog) {
    metrics.observeRequestLog(requestLog.stats);
    app.addHook('onClose', async () => requestLog.flush());
  }
  const outboxOwner = `outbox:${randomUUID()}`;
  const outbox = createOutbox({
    storage: deps.storage,
    owner: outboxOwner,
    lease: createLease({
      sql: deps.storage.sql,
      clock: deps.clock,
      name: 'outbox',
      owner: outboxOwner,
      ttlMs: OUTBOX_LEASE_TTL_MS,
    }),
    clock: deps.clock,
    // The log's mails are written whatever LOG_LEVEL says: without a mail server they exist nowhere else.
    mailer:
      deps.mailer ??
      createLogMailer(app.log.child({}, { level: 'info' }), deps.mailFrom ?? DEFAULT_MAIL_FROM),
    log: app.log,
    retryDelaysMs: deps.mailRetryDelaysMs,
    maxQueued: deps.mailOutboxCap,
    pollMs: deps.mailPollMs,
  });
  app.decorate('outbox', outbox);
  metrics.observeOutbox(() => outbox.stats());
  app.addHook('onReady', (done) => {
    outbox.start();
    done();
  });
  app.addHook('onClose', async () => outbox.close());
  const configuredLinks = configuredOrigin({ publicBaseUrl: deps.publicBaseUrl, apiHost });
  const domains = deferredDomains({
    storage: deps.storage,
    clock: deps.clock,
    resolver: deps.dns ?? createDnsResolver(),
    siteDomain,
    apiHost,
    caIdentity: deps.caIdentity ?? 'letsencrypt.org',
    enterpriseDomains: deps.enterpriseDomains,
    changed: () => sites.feed.catchUp().catch(() => {}),
  });
  app.decorate('domains', domains);
  // The areas registered on their first request route by the application's options and 404.
  const routing = (): AreaRouterOptions => ({
    hosts,
    maxParamLength: MAX_HEADER_BYTES,
    notFound: notFoundConfig,
  });
  // A revocation is answered once its change has come back through the feed (docs/reliability.md).
  const echo = (seq: number) => sites.feed.echo(seq);
  const accessTokens = createAccessTokenService({
    storage: deps.storage,
    clock: deps.clock,
    feed: sites.feed,
  });
  app.decorate('accessTokens', accessTokens);
  app.decorate('changeFeed', sites.feed);
  const identity = createIdentityChanges({ storage: deps.storage, clock: deps.clock, echo });
  // One count of the exports streaming, whichever door they came by (features/requests/export-slots.ts).
  const exports = deps.exportSlots ?? createExportSlots({ clock: deps.clock });
  if (!deps.exportSlots) app.addHook('onClose', async () => exports.close());
  const dashboard = createDashboardPlugin({
    storage: deps.storage,
    limiter: deps.limiter,
    clock: deps.clock,
    keyEnvironment: deps.keyEnvironment,
    passwordParams: deps.passwordParams,
    passwordStrength: deps.passwordStrength,
    hashingGate: deps.hashingGate,
    twoFactorKey: deps.twoFactorKey,
    siteDomain,
    domains,
    tlsProbe: deps.tlsProbe,
    settleRequestLog: async () => requestLog?.settle(),
    exports,
    outbox,
    linkOrigin: deps.linkOrigin ?? (() => configuredLinks),
    routing,
    accessTokens,
    identity,
    echo,
  });

  const manage = createManagePlugin({
    storage: deps.storage,
    limiter: metrics.instrumentLimiter(deps.limiter),
    clock: deps.clock,
    keyEnvironment: deps.keyEnvironment,
    tokenLimits: deps.manageTokenLimits,
    accountLimits: deps.manageAccountLimits,
    accessTokens,
    echo,
    domains,
    settleRequestLog: async () => requestLog?.settle(),
    exports,
    outbox,
    linkOrigin: deps.linkOrigin ?? (() => configuredLinks),
    routing,
    twoFactorKey: deps.twoFactorKey,
  });

  // Browsers may read the API from the configured origins and from the projects' docs sites (try-it).
  const configured = deps.cors ?? NO_ORIGINS;
  const admitDeps: AdmitDeps = {
    authenticator,
    limiter: metrics.instrumentLimiter(deps.limiter),
    keys: deps.storage.keys,
    usage,
    clock: deps.clock,
  };
  installGuard(app, {
    ...admitDeps,
    areas: { ...dashboard.checks, ...sites.checks, ...manage.checks },
    cors: { allows: (origin) => configured.allows(origin) || sites.routing.originAllowed(origin) },
  });
  /** Metrics, the log line and the request-log row of every answered request, whoever answered it. */
  const logRequest = requestLine(app.log, deps.logSample);
  const recordAnswer = (answer: AnsweredRequest) => {
    metrics.observeResponse(answer);
    logRequest(answer);
    const row = requestLog && loggedRequest(answer, deps.clock.now());
    if (row) requestLog!.add(row);
  };
  // Synchronous hooks take Fastify's callback form: no promise per request on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    recordAnswer(answeredOf(request, reply));
    done();
  });
  installJsonBody(app);
  installErrorHandler(app, (request, reply, error) => {
    const config = routeConfig(request);
    if (config.host === 'site') return sites.errorPage(request, reply, error);
    if (config.htmlErrors) return dashboard.errorPage(request, reply, error);
    const onApiHost = requestHostKind(request.raw, hosts) === 'api';
    return sendErrorAsPage(request, reply, error, onApiHost ? SERVICE_LINK : {});
  });
  const otherMethods = createOtherMethods(hosts, { maxParamLength: MAX_HEADER_BYTES });
  const notFoundConfig = installNotFound(app, otherMethods, hosts);

  const contract = publicContract().document;
  const api = createApiArea({
    contract,
    storage: deps.storage,
    clock: deps.clock,
    log: app.log,
    petCreated: () => metrics.http.petCreated(),
    warmPetCache: deps.warmPetCache,
    lane: { admit: admitDeps, hosts, requestId, trustProxy: deps.trustProxy ?? false, record: recordAnswer },
  });
  const internal = createInternalArea({
    storage: deps.storage,
    limiter: deps.limiter,
    log: app.log,
    gatherMetrics: deps.gatherMetrics ?? (async () => metrics.families()),
    minFreeDiskBytes: deps.minFreeDiskBytes,
    hosts: sites.directory,
    hostRouting: () => sites.directory.check(),
  });
  const areas = [api, internal, dashboard, sites, manage];
  const table: RouteTable = {
    operations: contractRoutes(contract, Object.assign({}, ...areas.map((area) => area.operations))),
    others: withHandlers(
      NON_CONTRACT_ROUTES.filter((route) => !isDashboardRoute(route)),
      Object.assign({}, ...areas.map((area) => area.others)),
    ),
  };
  for (const [index, area] of areas.entries()) {
    app.register(named(`area ${index}`, area.plugin), { table, otherMethods });
  }
  const registered: RouteSpec[] = [...table.operations, ...NON_CONTRACT_ROUTES];
  let routeTable: RouteSpec[] | undefined;
  app.decorate('routeTable', { getter: () => (routeTable ??= [...registered, ...manage.specs()]) });
  const labels = [...registered.map((route) => route.config.metricsLabel), ...manage.metricsLabels];
  for (const label of new Set(['other', ...labels])) metrics.http.declare(label);
  return app;
}
