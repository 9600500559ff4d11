import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { KeyEnvironment } from '../auth/keys.ts';
import { JSON_CONTENT_TYPE } from '../http/send-error.ts';
import type { Limits } from '../ratelimit/plans.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import { type AreaRouter, type AreaRouterOptions, createAreaRouter } from '../routes/area-router.ts';
import { withHandlers } from '../routes/table.ts';
import type { Store } from '../features/store.ts';
import type { Clock } from '../time/clock.ts';
import { accessTokenCheck } from '../features/access-tokens/check.ts';
import type { AccessTokenService } from '../features/access-tokens/service.ts';
import { auditRoutes } from '../features/audit/routes.ts';
import { createAuditService } from '../features/audit/service.ts';
import { keyRoutes } from '../features/keys/routes.ts';
import { createKeyService } from '../features/keys/service.ts';
import { projectRoutes } from '../features/projects/routes.ts';
import { accessTokenRoutes } from '../features/access-tokens/routes.ts';
import { requestRoutes } from '../features/requests/routes.ts';
import { createRequestService } from '../features/requests/service.ts';
import type { ExportSlots } from '../features/requests/export-slots.ts';
import { createProjectService } from '../features/projects/service.ts';
import { domainRoutes } from '../features/domains/routes.ts';
import type { DomainsService } from '../features/domains/service.ts';
import { manageContract } from '../openapi/contract.ts';
import { requestScheme } from '../http/scheme.ts';
import type { Outbox } from '../mail/outbox.ts';
import { memberRoutes } from '../features/members/routes.ts';
import { createMemberService } from '../features/members/service.ts';
import { routeConfig } from '../http/route-config.ts';
import { authorise } from '../features/shared/actor.ts';
import { valueOrThrow } from '../features/shared/outcome.ts';
import { tokenActorOf } from '../features/access-tokens/check.ts';
import { createSecretBox } from '../features/identity/two-factor-secrets.ts';
import { createIdempotentAnswers, sealingKey } from '../idempotency/sealed-answers.ts';
import { manageRouteSpecs, projectNeeds, readingDeclaredInput } from './contract.ts';

export interface ManageAreaDeps {
  storage: Store;
  limiter: RateLimiter;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  /** Each access token's rate limits (default MANAGE_TOKEN_LIMITS). */
  tokenLimits?: Limits;
  /** Each account's ceiling across all its tokens (default MANAGE_ACCOUNT_LIMITS). */
  accountLimits?: Limits;
  /** The app's one access-token service (the dashboard's too). */
  accessTokens: AccessTokenService;
  /** Resolves once a committed change of the feed has come back (ChangeFeed.echo): key revocations wait. */
  echo?: (seq: number) => Promise<boolean>;
  /** Resolves once this instance's waiting request-log rows are written. */
  settleRequestLog?: () => Promise<void>;
  /** The app's exports of the request log streaming at once, shared with the dashboard's. */
  exports: ExportSlots;
  /** Where invitation mails go. */
  outbox: Outbox;
  /** The configured origin of links in mails; else the origin the request reached. */
  linkOrigin?: () => string | undefined;
  /** Custom domains: the service the dashboard and the background checks use. */
  domains: DomainsService;
  /** How the area's router matches and answers (the application router's options, its 404). */
  routing: AreaRouterOptions;
  /** The operator's PETSTORE_TWO_FACTOR_KEY: the key sealing kept idempotent answers derives from it. */
  twoFactorKey?: Buffer;
}

/** The management API once loaded: its router, and the guard's check of its routes. */
export interface ManageArea {
  router: AreaRouter;
  checks: { accessToken(request: FastifyRequest, reply: FastifyReply): Promise<void> };
}

/**
 * The management API (`/manage/v1`, docs/management-api.md), imported on its first request
 * (plugin.ts): its routes from openapi/manage.yaml, each on the application services the dashboard and
 * the command line use; the guard's access-token check.
 */
export function createManageArea(deps: ManageAreaDeps): ManageArea {
  const { storage, clock } = deps;
  const tokenCheck = accessTokenCheck({
    tokens: deps.accessTokens,
    limiter: deps.limiter,
    limits: deps.tokenLimits,
    accountLimits: deps.accountLimits,
  });
  const { json, document } = manageContract();
  const needs = projectNeeds(document);
  /**
   * The project, the token's scope and the role, decided in the guard before the body is read, so that
   * a token that may not act learns nothing from its body (400). The services decide them for every
   * door (dashboard, command line); for this request they take the project and role read here.
   */
  const projectCheck = async (request: FastifyRequest) => {
    const need = needs.get(routeConfig(request).operationId);
    if (!need) return;
    const { slug } = request.params as { slug: string };
    const actor = tokenActorOf(request);
    const allowed = valueOrThrow(await authorise(storage.projects, actor, slug, need.role, need.write));
    request.tokenActor = { ...actor, checked: { ...allowed, slug } };
  };
  const answersKey = sealingKey(deps.twoFactorKey, storage.accounts, clock);
  const answers = createIdempotentAnswers({
    sql: storage.sql,
    clock,
    key: answersKey,
    box: createSecretBox(answersKey),
  });
  const handlers: Record<string, RouteHandlerMethod> = {
    ...projectRoutes(createProjectService({ storage, clock })),
    ...keyRoutes(
      createKeyService({ storage, clock, keyEnvironment: deps.keyEnvironment, echo: deps.echo }),
      clock,
      answers,
    ),
    ...auditRoutes(createAuditService({ storage })),
    ...memberRoutes(
      createMemberService({ storage, clock, outbox: deps.outbox, limiter: deps.limiter }),
      (request) => deps.linkOrigin?.() ?? `${requestScheme(request)}://${request.host}`,
    ),
    ...domainRoutes(deps.domains),
    ...requestRoutes(
      createRequestService({ storage, clock, settle: deps.settleRequestLog, exports: deps.exports }),
    ),
    ...accessTokenRoutes(
      deps.accessTokens,
      async (accountId) =>
        new Map(
          (await storage.projects.listForAccount(accountId)).map((project) => [project.id, project.slug]),
        ),
      answers,
    ),
    getManageDocument: async (_request, reply) =>
      reply
        .header('content-type', JSON_CONTENT_TYPE)
        .header('cache-control', 'public, max-age=300')
        .send(json),
  };
  return {
    router: createAreaRouter(
      withHandlers(manageRouteSpecs(document), readingDeclaredInput(document, handlers)),
      deps.routing,
    ),
    checks: {
      async accessToken(request, reply) {
        await tokenCheck(request, reply);
        await projectCheck(request);
      },
    },
  };
}
