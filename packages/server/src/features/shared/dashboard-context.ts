import type { FastifyReply, FastifyRequest } from 'fastify';
import { memberOf } from '../members/page-roles.ts';
import { signedInOf } from '../identity/session-cookie.ts';
import type { IdentityChanges } from '../identity/identity-changes.ts';
import type { Sessions } from '../identity/sessions.ts';
import type { AccessTokenService } from '../access-tokens/service.ts';
import type { KeyEnvironment } from '../../auth/keys.ts';
import type { CertificateState } from '../domains/certificate.ts';
import type { DomainsService } from '../domains/service.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import type { Project } from '../projects/project-repository.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../../time/clock.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { type Audit, createAudit } from '../audit/page-audit.ts';
import { createProjectService, type ProjectService } from '../projects/service.ts';
import { createFlashes, type Flashes } from '../identity/flash.ts';
import type { Html } from '../../web/html.ts';
import { sendPage } from './page.ts';
import type { ExportSlots } from '../requests/export-slots.ts';

export interface DashboardDeps {
  storage: Store;
  sessions: Sessions;
  limiter: RateLimiter;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  /** The address of a project's docs site, as seen from this request (same scheme and port). */
  siteUrl(request: FastifyRequest, slug: string): string;
  domains: DomainsService;
  /** The certificate the TLS proxy holds for a name, when a probe address is configured. */
  certificate?(hostname: string): Promise<CertificateState>;
  /**
   * Resolves once this instance's request-log rows waiting when called are written: pages of the log
   * and of usage call it first, so they show the calls just answered here.
   */
  settleRequestLog(): Promise<void>;
  /** The app's exports of the request log streaming at once (features/requests/export-slots.ts). */
  exports: ExportSlots;
  /** Where mails go (invitations, password resets), sent off the request path. */
  outbox: Outbox;
  /** The origin links in mails start with: the configured one, never the Host a request names. */
  linkOrigin(request: FastifyRequest): string;
  /** The app's one access-token service, shared with the management API's guard. */
  accessTokens: AccessTokenService;
  /** The identity changes (password, two-factor, sessions ended), each one transaction. */
  identity: IdentityChanges;
  /** Resolves once a committed change of the feed has come back (ChangeFeed.echo): revocations wait. */
  echo: (seq: number) => Promise<boolean>;
}

/** What every page module of the dashboard shares. */
export interface DashboardContext extends DashboardDeps {
  flashes: Flashes;
  /** Records a sign-in in the audit trail (the account's changes record themselves: identity). */
  audit: Audit;
  /** Project settings (name, two-factor requirement), each change with its audit record. */
  projects: ProjectService;
  /** The signed-in account and its session's CSRF token. */
  signedIn(request: FastifyRequest): {
    account: NonNullable<FastifyRequest['signedIn']>['account'];
    csrfToken: string;
  };
  /** The project of a project route, as the guard found it (membership and role already checked). */
  memberProject(request: FastifyRequest): Project;
  page(
    request: FastifyRequest,
    reply: FastifyReply,
    title: string,
    main: Html,
    status?: number,
  ): FastifyReply;
  /** Post/redirect/get: 303 to the page that shows the outcome. */
  back(reply: FastifyReply, path: string): FastifyReply;
}

export function dashboardContext(deps: DashboardDeps): DashboardContext {
  const signedIn: DashboardContext['signedIn'] = (request) => {
    const current = signedInOf(request);
    return { account: current.account, csrfToken: current.session.csrfToken };
  };
  return {
    ...deps,
    flashes: createFlashes(deps.storage.accounts, deps.clock),
    audit: createAudit(deps.storage, deps.clock),
    projects: createProjectService({ storage: deps.storage, clock: deps.clock }),
    signedIn,
    memberProject: (request) => memberOf(request).project,
    page: (request, reply, title, main, status = 200) =>
      sendPage(request, reply, { title, main, signedIn: signedIn(request), status }),
    back: (reply, path) => reply.redirect(path, 303),
  };
}
