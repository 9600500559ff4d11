import fp from 'fastify-plugin';
import type { HashingGate } from '../accounts/hashing-gate.ts';
import type { ScryptParams } from '../accounts/passwords.ts';
import type { Sessions } from '../accounts/sessions.ts';
import type { KeyEnvironment } from '../auth/keys.ts';
import type { CertificateState, ProbeAddress } from '../features/domains/certificate.ts';
import type { DomainsService } from '../features/domains/service.ts';
import type { ErrorPage } from '../http/error-handler.ts';
import type { AreaChecks } from '../http/guard.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import { type Area, type AreaOptions, registerAreaRoutes } from '../routes/area.ts';
import { lazyHandlers } from '../routes/lazy-handlers.ts';
import { NON_CONTRACT_ROUTES } from '../routes/table.ts';
import { urlFor } from '../routes/urls.ts';
import { siteUrl } from '../sites/urls.ts';
import type { Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import type { Outbox } from '../mail/outbox.ts';
import { requestScheme } from '../http/scheme.ts';
import { sendErrorPage } from './error-page.ts';
import { requireRole } from './roles.ts';
import { requireTwoFactorOf } from './two-factor-guard.ts';
import { checkCsrf, requireSession } from './session-cookie.ts';

export interface DashboardAreaDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  passwordParams?: ScryptParams;
  hashingGate?: HashingGate;
  /** The key sealing TOTP secrets (PETSTORE_TWO_FACTOR_KEY); default: one kept in the database. */
  twoFactorKey?: Buffer;
  siteDomain: string;
  /** Custom domains: the one service every door uses. */
  domains: DomainsService;
  tlsProbe?: ProbeAddress;
  /**
   * Resolves once this instance's request-log rows waiting when called are written: pages of the log
   * and of usage call it first, so they show the calls just answered here.
   */
  settleRequestLog(): Promise<void>;
  /** Where mails go (invitations, password resets). */
  outbox: Outbox;
  /**
   * The origin of links in mails (PUBLIC_BASE_URL's, else https://PETSTORE_API_HOST, else where the
   * server listens); undefined: the request's own (tests, in-process).
   */
  linkOrigin?: () => string | undefined;
}

export interface DashboardArea extends Area {
  /** The guard's checks of the dashboard's routes. */
  checks: Pick<AreaChecks, 'session' | 'role' | 'csrf'>;
  errorPage: ErrorPage;
}

/**
 * The dashboard: its pages and forms (imported on their first request, see lazyHandlers), the guard's
 * checks for them (the session, the member's role, a form's CSRF token) and its error pages (its routes
 * have a scope of their own, see registerAreaRoutes).
 */
export function createDashboardArea(deps: DashboardAreaDeps): DashboardArea {
  // Sign-in and sessions (passwords, throttling, device cookies) are imported on the first request
  // that needs them, like the pages; a failed import is tried again by the next.
  let loadingSessions: Promise<Sessions> | undefined;
  const sessions = () =>
    (loadingSessions ??= import('../accounts/sessions.ts').then(
      ({ createSessions }) =>
        createSessions({
          accounts: deps.storage.accounts,
          limiter: deps.limiter,
          clock: deps.clock,
          passwordParams: deps.passwordParams,
          hashingGate: deps.hashingGate,
          twoFactorKey: deps.twoFactorKey,
        }),
      (error: unknown) => {
        loadingSessions = undefined;
        throw error;
      },
    ));
  const { domains } = deps;
  const probe = deps.tlsProbe;
  // Imported only where a TLS proxy is configured, on the first page that shows a certificate.
  const certificate = probe
    ? async (hostname: string): Promise<CertificateState> =>
        (await import('../features/domains/certificate.ts')).probeCertificate(probe, hostname)
    : undefined;
  const operationIds = NON_CONTRACT_ROUTES.filter((route) =>
    route.url.startsWith(urlFor('projectsPage')),
  ).map((route) => route.config.operationId);
  const others = lazyHandlers(operationIds, async () =>
    (await import('./routes.ts')).dashboardHandlers({
      storage: deps.storage,
      sessions: await sessions(),
      limiter: deps.limiter,
      clock: deps.clock,
      keyEnvironment: deps.keyEnvironment,
      siteUrl: (request, slug) => siteUrl(request, slug, deps.siteDomain),
      domains,
      certificate,
      settleRequestLog: deps.settleRequestLog,
      outbox: deps.outbox,
      linkOrigin: (request) => deps.linkOrigin?.() ?? `${requestScheme(request)}://${request.host}`,
    }),
  );
  return {
    others,
    checks: {
      session: async (request) => requireSession(request, await sessions()),
      role: async (request, role) => {
        await requireRole(request, deps.storage.projects, role);
        await requireTwoFactorOf(request, deps.storage.accounts);
      },
      csrf: checkCsrf,
    },
    errorPage: sendErrorPage,
    plugin: fp<AreaOptions>(
      (app, options, done) => {
        registerAreaRoutes(app, options, { others });
        done();
      },
      { name: 'dashboard' },
    ),
  };
}
