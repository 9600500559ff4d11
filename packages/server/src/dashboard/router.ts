import type { HashingGate } from '../features/identity/hashing-gate.ts';
import type { ScryptParams } from '../features/identity/passwords.ts';
import type { IdentityChanges } from '../features/identity/identity-changes.ts';
import type { Sessions } from '../features/identity/sessions.ts';
import type { StrengthPool } from '../features/identity/strength-pool.ts';
import type { AccessTokenService } from '../features/access-tokens/service.ts';
import type { KeyEnvironment } from '../auth/keys.ts';
import type { CertificateState, ProbeAddress } from '../features/domains/certificate.ts';
import type { DomainsService } from '../features/domains/service.ts';
import type { AreaChecks } from '../http/guard.ts';
import { requestScheme } from '../http/scheme.ts';
import type { Outbox } from '../mail/outbox.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import { type AreaRouter, type AreaRouterOptions, createAreaRouter } from '../routes/area-router.ts';
import { lazyHandlers } from '../routes/lazy-handlers.ts';
import { type RouteSpec, withHandlers } from '../routes/table.ts';
import { siteUrl } from '../features/domains/sites/urls.ts';
import type { Store as Storage } from '../features/store.ts';
import type { Clock } from '../time/clock.ts';
import { requireRole } from '../features/members/page-roles.ts';
import { checkCsrf, requireSession } from '../features/identity/session-cookie.ts';
import { requireTwoFactorOf } from '../features/identity/two-factor-guard.ts';
import type { ExportSlots } from '../features/requests/export-slots.ts';

export interface DashboardAreaDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  passwordParams?: ScryptParams;
  passwordStrength?: Pick<StrengthPool, 'check'>;
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
  /** The app's exports of the request log streaming at once, shared with the management API's. */
  exports: ExportSlots;
  /** Where mails go (invitations, password resets). */
  outbox: Outbox;
  /**
   * The origin of links in mails (PUBLIC_BASE_URL's, else https://PETSTORE_API_HOST, else where the
   * server listens); undefined: the request's own (tests, in-process).
   */
  linkOrigin?: () => string | undefined;
  /** The app's one access-token service (the management API's guard checks tokens with it). */
  accessTokens: AccessTokenService;
  /** The identity changes (password, two-factor, sessions ended), each one transaction. */
  identity: IdentityChanges;
  /** Resolves once a committed change of the feed has come back (ChangeFeed.echo): revocations wait. */
  echo: (seq: number) => Promise<boolean>;
}

/** The dashboard once loaded: its router, and the guard's checks of its routes. */
export interface DashboardArea {
  router: AreaRouter;
  checks: Pick<AreaChecks, 'session' | 'role' | 'csrf'>;
}

/**
 * The dashboard, imported on its first request (plugin.ts): its routes, `specs`, answered by its
 * pages and forms (each page module imported on the first request of any, see lazyHandlers), and the
 * guard's checks of them (the session, the member's role, a form's CSRF token).
 */
export function createDashboardArea(
  deps: DashboardAreaDeps,
  specs: readonly RouteSpec[],
  routing: AreaRouterOptions,
): DashboardArea {
  // Sign-in and sessions (passwords, throttling, device cookies) are imported on the first request
  // that needs them, like the pages; a failed import is tried again by the next.
  let loadingSessions: Promise<Sessions> | undefined;
  const sessions = () =>
    (loadingSessions ??= import('../features/identity/sessions.ts').then(
      ({ createSessions }) =>
        createSessions({
          accounts: deps.storage.accounts,
          limiter: deps.limiter,
          clock: deps.clock,
          passwordParams: deps.passwordParams,
          passwordStrength: deps.passwordStrength,
          hashingGate: deps.hashingGate,
          twoFactorKey: deps.twoFactorKey,
          identity: deps.identity,
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
  const handlers = lazyHandlers(
    specs.map((spec) => spec.config.operationId),
    async () =>
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
        exports: deps.exports,
        outbox: deps.outbox,
        linkOrigin: (request) => deps.linkOrigin?.() ?? `${requestScheme(request)}://${request.host}`,
        accessTokens: deps.accessTokens,
        identity: deps.identity,
        echo: deps.echo,
      }),
  );
  return {
    router: createAreaRouter(withHandlers(specs, handlers), routing),
    checks: {
      session: async (request) => requireSession(request, await sessions()),
      role: async (request, role) => {
        await requireRole(request, deps.storage.projects, role);
        await requireTwoFactorOf(request, deps.storage.accounts);
      },
      csrf: checkCsrf,
    },
  };
}
