import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { HashingGate } from './accounts/hashing-gate.ts';
import type { ScryptParams } from './accounts/passwords.ts';
import { createSessions } from './accounts/sessions.ts';
import { createAuthenticator } from './auth/authenticator.ts';
import { createKeyUsage } from './auth/key-usage.ts';
import type { KeyEnvironment } from './auth/keys.ts';
import { sendErrorPage } from './dashboard/error-page.ts';
import { installFormBody } from './web/form-body.ts';
import { type CertificateState, probeCertificate, type ProbeAddress } from './domains/certificate.ts';
import { createDnsResolver, type DnsResolver } from './domains/dns.ts';
import { createDomainService, type DomainService } from './domains/domain-service.ts';
import { tlsAsk } from './domains/tls-ask.ts';
import { type CorsPolicy, NO_ORIGINS } from './http/cors.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { installEdge } from './http/edge.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { sendErrorAsPage } from './web/error-page.ts';
import { type AdmitDeps, installGuard } from './http/guard.ts';
import { requireRole } from './dashboard/roles.ts';
import { checkCsrf, requireSession } from './dashboard/session-cookie.ts';
import { requireSite } from './sites/site-guard.ts';
import { clientOriginReader } from './http/client-origin.ts';
import { installLane } from './http/lane.ts';
import { createPetsLane } from './routes/pets-lane.ts';
import { BODY_LIMIT_BYTES, installJsonBody } from './http/json-body.ts';
import {
  DEFAULT_HTTP_LIMITS,
  type HttpLimits,
  MAX_HEADER_BYTES,
  TIMEOUT_CHECK_INTERVAL_MS,
} from './http/limits.ts';
import { installNotFound } from './http/not-found.ts';
import { createOtherMethods } from './http/other-methods.ts';
import { createRequestIds, requestIdReader } from './http/request-ids.ts';
import { requestLine } from './http/request-log.ts';
import { type AnsweredRequest, answeredOf } from './http/answered.ts';
import { loggedRequest } from './insights/logged-request.ts';
import {
  createRequestLogWriter,
  type RequestLogWriter,
  type RequestLogWriterOptions,
} from './insights/request-log-writer.ts';
import { trustedProxyMatcher } from './http/trusted-proxies.ts';
import type { Family } from './metrics/exposition.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { contract } from './openapi/contract.ts';
import { createPetService, type PetService } from './pets/pet-service.ts';
import type { RateLimiter } from './ratelimit/limiter.ts';
import { lazyHandlers } from './routes/lazy-handlers.ts';
import { urlFor } from './routes/urls.ts';
import { SERVICE_LINK } from './routes/service-link.ts';
import { healthOperations } from './routes/health.ts';
import { getMetrics } from './routes/metrics.ts';
import { getOpenApiDocument } from './routes/openapi.ts';
import { createPet } from './routes/pets-create.ts';
import { getPet } from './routes/pets-get.ts';
import { listPets } from './routes/pets-list.ts';
import { listStoreOrders } from './routes/store-orders.ts';
import { routeConfig } from './http/route-config.ts';
import {
  contractRoutes,
  NON_CONTRACT_ROUTES,
  nonContractRoutes,
  type RouteDefinition,
  registerRoutes,
} from './routes/table.ts';
import { isServiceName, type ServiceNames } from './hosts/service-names.ts';
import { rewriteRequestTarget } from './http/request-target.ts';
import { hostKindConstraint, type HostRules, requestHostKind } from './http/host-kind.ts';
import { createSiteDirectory } from './sites/site-directory.ts';
import { createSiteHosts } from './sites/site-hosts.ts';
import { sendSiteErrorPage } from './sites/site-error-page.ts';
import { siteUrl } from './sites/urls.ts';
import type { Storage } from './storage/repository.ts';
import type { Clock } from './time/clock.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app answers, with its configuration (for tooling and tests). */
    routeTable: readonly RouteDefinition[];
  }
}

export interface AppDeps {
  storage: Storage;
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
  /** Bounds and orders the password checks (default: HASHING_LIMITS); tests hold its slots. */
  hashingGate?: HashingGate;
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
  /** How often the host sets read projects and served domains again (default SITE_HOSTS_REFRESH_MS). */
  siteHostsRefreshMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Custom domains: the dashboard's service, also run by the server's background checks. */
    domains: DomainService;
    /** The request log's writer; undefined when logging is off. */
    requestLog: RequestLogWriter | undefined;
  }
}

/**
 * getPet is deprecated, so its pets are read into memory only once a client asks for one: the first
 * getPet starts the warm-up in the background, and a deployment whose clients moved on pays nothing.
 */
function warmingOnFirstGet(app: FastifyInstance, pets: PetService): PetService {
  let closing = false;
  let started = false;
  app.addHook('onClose', (_instance, done) => {
    closing = true;
    done();
  });
  const start = () => {
    started = true;
    const begun = performance.now();
    pets
      .warm(() => closing)
      .then(
        (loaded) =>
          app.log.info({ loaded, ms: Math.round(performance.now() - begun) }, 'pets loaded into memory'),
        (error: unknown) => app.log.warn({ err: error }, 'loading pets into memory stopped early'),
      );
  };
  return {
    ...pets,
    get(id) {
      if (!started) start();
      return pets.get(id);
    },
  };
}

function configOf(routes: readonly RouteDefinition[], operationId: string) {
  const route = routes.find((candidate) => candidate.config.operationId === operationId);
  if (!route) throw new Error(`the route table has no ${operationId}`);
  return route.config;
}

/** Builds the application; it never listens (server.ts does). */
const noSchemas = (): never => {
  throw new Error('routes carry no Fastify schema: inputs are checked by validation/ against the contract');
};
const NO_SCHEMA_COMPILERS = { buildValidator: () => noSchemas, buildSerializer: () => noSchemas };

export function buildApp(deps: AppDeps): FastifyInstance {
  const siteDomain = deps.hosts?.siteDomain ?? 'sites.localhost';
  const siteHosts = createSiteHosts({
    projects: deps.storage.projects,
    domains: deps.storage.domains,
    siteDomain,
    refreshMs: deps.siteHostsRefreshMs,
  });
  const names: ServiceNames = { siteDomain, apiHosts: deps.hosts?.apiHost ? [deps.hosts.apiHost] : [] };
  const hosts: HostRules = { names, isServedDomain: siteHosts.isServedDomain };
  const sites = createSiteDirectory({
    projects: deps.storage.projects,
    domains: deps.storage.domains,
    siteDomain,
  });
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
    },
    clientErrorHandler: clientErrorHandler(metrics.http),
    // Inputs are checked against the contract by validation/ and answers are written by the handlers, so
    // no route has a Fastify schema: without these, Fastify loads Ajv and fast-json-stringify (about 115
    // modules) at start-up for nothing.
    schemaController: { compilersFactory: NO_SCHEMA_COMPILERS },
  });
  const connections = installEdge(app, {
    limits,
    exempt: trustedProxyMatcher(deps.trustProxy ?? false),
    log: app.log,
    metrics: metrics.http,
  });
  metrics.observeConnections(connections);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  const authenticator = createAuthenticator({
    keys: deps.storage,
    clock: deps.clock,
    environment: deps.keyEnvironment,
    changeToken: () => deps.storage.changeToken(),
  });
  const usage = createKeyUsage({
    keys: deps.storage,
    onError: (error) => app.log.warn({ err: error }, 'the last use of a key could not be recorded'),
  });
  app.addHook('onClose', async () => usage.flush());
  app.addHook('onClose', async () => metrics.close());
  const petService = createPetService({
    storage: deps.storage,
    clock: deps.clock,
    events: { petCreated: () => metrics.http.petCreated() },
  });
  const pets = deps.warmPetCache ? warmingOnFirstGet(app, petService) : petService;

  // Browsers may read the API from the configured origins and from the projects' docs sites (try-it).
  const configured = deps.cors ?? NO_ORIGINS;
  app.addHook('onClose', async () => siteHosts.close());
  const sessions = createSessions({
    accounts: deps.storage.accounts,
    limiter: deps.limiter,
    clock: deps.clock,
    passwordParams: deps.passwordParams,
    hashingGate: deps.hashingGate,
  });
  const admitDeps: AdmitDeps = {
    authenticator,
    limiter: metrics.instrumentLimiter(deps.limiter),
    keys: deps.storage,
    usage,
    clock: deps.clock,
  };
  installGuard(app, {
    ...admitDeps,
    areas: {
      session: (request) => requireSession(request, sessions),
      role: (request, role) => requireRole(request, deps.storage.projects, role),
      site: (request, reply) => requireSite(request, reply, sites),
      csrf: checkCsrf,
    },
    cors: { allows: (origin) => configured.allows(origin) || siteHosts.origins.allows(origin) },
    servesCustomDomain:
      names.apiHosts.length === 0
        ? async (hostname) => !isServiceName(hostname, names) && (await sites.resolve(hostname)) !== undefined
        : undefined,
  });
  const requestLog =
    deps.requestLog === false
      ? undefined
      : createRequestLogWriter({
          ...deps.requestLog,
          store: deps.storage.requestLog,
          onError: (error, rows) =>
            app.log.warn({ err: error, rows }, 'request log rows could not be written'),
        });
  app.decorate('requestLog', requestLog);
  if (requestLog) {
    metrics.observeRequestLog(requestLog.stats);
    app.addHook('onClose', async () => requestLog.flush());
  }
  /** Metrics, the log line and the request-log row of every answered request, whoever answered it. */
  const logRequest = requestLine(app.log);
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
    if (config.host === 'site') return sendSiteErrorPage(request, reply, error);
    if (config.htmlErrors) return sendErrorPage(request, reply, error);
    const onApiHost = requestHostKind(request.raw, hosts) === 'api';
    return sendErrorAsPage(request, reply, error, onApiHost ? SERVICE_LINK : {});
  });
  const otherMethods = createOtherMethods(hosts, { maxParamLength: MAX_HEADER_BYTES });
  installNotFound(app, otherMethods);

  const domains = createDomainService({
    storage: deps.storage,
    resolver: deps.dns ?? createDnsResolver(),
    clock: deps.clock,
    siteDomain,
    apiHost: deps.hosts?.apiHost,
    caIdentity: deps.caIdentity ?? 'letsencrypt.org',
    enterpriseDomains: deps.enterpriseDomains,
    changed: () => siteHosts.refresh(),
  });
  app.decorate('domains', domains);
  const probe = deps.tlsProbe;
  const certificate = probe
    ? (hostname: string): Promise<CertificateState> => probeCertificate(probe, hostname)
    : undefined;

  // The docs, the dashboard and the sites are imported on their first request (see lazyHandlers).
  const docs = lazyHandlers(['getDocs', 'getDocsAsset', 'redirectToDocs'], async () => {
    const { getDocs, getDocsAsset, redirectToDocs } = await import('./routes/docs.ts');
    return { getDocs, getDocsAsset, redirectToDocs };
  });
  const operationsOf = (serves: (route: (typeof NON_CONTRACT_ROUTES)[number]) => boolean) =>
    NON_CONTRACT_ROUTES.filter(serves).map((route) => route.config.operationId);
  const dashboard = lazyHandlers(
    operationsOf((route) => route.url.startsWith(urlFor('projectsPage'))),
    async () =>
      (await import('./dashboard/routes.ts')).dashboardHandlers({
        storage: deps.storage,
        sessions,
        limiter: deps.limiter,
        clock: deps.clock,
        keyEnvironment: deps.keyEnvironment,
        siteUrl: (request, slug) => siteUrl(request, slug, siteDomain),
        domains,
        certificate,
      }),
  );
  const siteRoutes = lazyHandlers(
    operationsOf((route) => route.config.host === 'site'),
    async () =>
      (await import('./sites/site-routes.ts')).siteHandlers({
        publicBaseUrl: deps.publicBaseUrl,
        apiHost: deps.hosts?.apiHost,
      }),
  );
  const apiRoutes = contractRoutes(contract, {
    listPets: listPets(pets),
    createPet: createPet(pets),
    getPet: getPet(pets),
    listStoreOrders,
    getOpenApiDocument,
    ...healthOperations(app, {
      storage: deps.storage,
      limiter: deps.limiter,
      minFreeDiskBytes: deps.minFreeDiskBytes,
    }),
    getMetrics: getMetrics(deps.gatherMetrics ?? (async () => metrics.families())),
    getDocs: docs.getDocs!,
  });
  const otherRoutes = nonContractRoutes({
    getDocsAsset: docs.getDocsAsset!,
    redirectToDocs: docs.redirectToDocs!,
    ...dashboard,
    ...siteRoutes,
    tlsAsk: tlsAsk({
      projects: deps.storage.projects,
      domains: deps.storage.domains,
      siteDomain,
    }),
  });
  registerRoutes(app, apiRoutes, otherMethods);
  installLane(
    app,
    createPetsLane({
      admit: admitDeps,
      pets,
      routes: {
        listPets: configOf(apiRoutes, 'listPets'),
        getPet: configOf(apiRoutes, 'getPet'),
      },
      hosts,
      requestId,
      clientOrigin: clientOriginReader(deps.trustProxy ?? false),
      log: app.log,
      record: recordAnswer,
      closing: () => closing,
    }),
  );
  // Forms are parsed outside the API's scope only: the API takes JSON alone.
  app.register(async (scope) => {
    installFormBody(scope);
    registerRoutes(scope, otherRoutes, otherMethods);
  });
  const routes = [...apiRoutes, ...otherRoutes];
  app.decorate('routeTable', routes);
  for (const label of new Set(['other', ...routes.map((route) => route.config.metricsLabel)])) {
    metrics.http.declare(label);
  }
  return app;
}
