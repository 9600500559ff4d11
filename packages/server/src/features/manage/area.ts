import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { KeyEnvironment } from '../../auth/keys.ts';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';
import type { RouteConfig } from '../../http/route-config.ts';
import type { OpenApiDocument } from '../../openapi/contract.ts';
import type { Limits } from '../../ratelimit/plans.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import type { Area } from '../../routes/area.ts';
import { type RouteDefinition, registerRoutes } from '../../routes/table.ts';
import type { Storage } from '../../storage/repository.ts';
import type { Clock } from '../../time/clock.ts';
import { accessTokenCheck } from '../access-tokens/check.ts';
import { createAccessTokenService } from '../access-tokens/service.ts';
import { auditRoutes } from '../audit/routes.ts';
import { createAuditService } from '../audit/service.ts';
import { keyRoutes } from '../keys/routes.ts';
import { createKeyService } from '../keys/service.ts';
import { projectRoutes } from '../projects/routes.ts';
import { requestRoutes } from '../requests/routes.ts';
import { createRequestService } from '../requests/service.ts';
import { createProjectService } from '../projects/service.ts';
import { domainRoutes } from '../domains/routes.ts';
import type { DomainsService } from '../domains/service.ts';
import { manageContract } from '../../openapi/contract.ts';
import { requestScheme } from '../../http/scheme.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { memberRoutes } from '../members/routes.ts';
import { createMemberService } from '../members/service.ts';
import { ROLES, type Role } from '../members/member-records.ts';
import { routeConfig } from '../../http/route-config.ts';
import { authorise } from '../shared/actor.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { tokenActorOf } from '../access-tokens/check.ts';

export interface ManageAreaDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  /** Each access token's rate limits (default MANAGE_TOKEN_LIMITS). */
  tokenLimits?: Limits;
  /** Resolves once this instance's waiting request-log rows are written. */
  settleRequestLog?: () => Promise<void>;
  /** Where invitation mails go. */
  outbox: Outbox;
  /** The configured origin of links in mails; else the origin the request reached. */
  linkOrigin?: () => string | undefined;
  /** Custom domains: the service the dashboard and the background checks use. */
  domains: DomainsService;
}

const OPERATION_METHODS = ['get', 'post', 'delete'];

/** The operations of openapi/manage.yaml as routes under its server's path (`/manage/v1`). */
export function manageRoutes(
  document: OpenApiDocument,
  handlers: Record<string, RouteHandlerMethod>,
): RouteDefinition[] {
  const prefix = new URL(document.servers[0]!.url, 'http://localhost/').pathname.replace(/\/$/, '');
  return Object.entries(document.paths).flatMap(([template, item]) =>
    OPERATION_METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as { operationId: string; security?: unknown[] };
      const handler = handlers[operation.operationId];
      if (!handler) throw new Error(`no handler for the management operation ${operation.operationId}`);
      const open = operation.security?.length === 0;
      const config: RouteConfig = open
        ? {
            operationId: operation.operationId,
            access: 'public',
            rateLimited: true,
            addressBudget: 'public',
            metricsLabel: 'other',
          }
        : {
            operationId: operation.operationId,
            access: 'accessToken',
            rateLimited: false,
            metricsLabel: 'manage',
          };
      const url = `${prefix}${template.replace(/\{([^}]+)\}/g, ':$1')}`;
      return { method: method.toUpperCase(), url, config, handler };
    }),
  );
}

/** What an operation on a project asks of the token's account there: its least role, and whether it writes. */
interface ProjectNeed {
  role: Role;
  write: boolean;
}

/**
 * Each project operation's `x-role` (openapi/manage.yaml), by operationId. An operation under
 * `/projects/{slug}` without one is a mistake in the document: the app refuses to start.
 */
export function projectNeeds(document: OpenApiDocument): Map<string, ProjectNeed> {
  const needs = new Map<string, ProjectNeed>();
  for (const [template, item] of Object.entries(document.paths)) {
    if (!template.startsWith('/projects/{slug}')) continue;
    for (const method of OPERATION_METHODS.filter((name) => item[name])) {
      const operation = item[method] as { operationId: string; 'x-role'?: string };
      const role = operation['x-role'] as Role | undefined;
      if (!role || !ROLES.includes(role)) {
        throw new Error(
          `the management operation ${operation.operationId} names no x-role of ${ROLES.join(', ')}`,
        );
      }
      needs.set(operation.operationId, { role, write: method !== 'get' });
    }
  }
  return needs;
}

/**
 * The management API (`/manage/v1`, docs/management-api.md): its routes from openapi/manage.yaml,
 * read when the app starts, each on the application services the dashboard and the command line use;
 * the guard's access-token check.
 */
export function createManageArea(deps: ManageAreaDeps): Area & {
  checks: { accessToken(request: FastifyRequest, reply: FastifyReply): Promise<void> };
  routes: RouteDefinition[];
} {
  const { storage, clock } = deps;
  const tokens = createAccessTokenService({ storage, clock });
  const routes: RouteDefinition[] = [];
  const tokenCheck = accessTokenCheck({ tokens, limiter: deps.limiter, limits: deps.tokenLimits });
  let needs = new Map<string, ProjectNeed>();
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
  return {
    routes,
    checks: {
      async accessToken(request, reply) {
        await tokenCheck(request, reply);
        await projectCheck(request);
      },
    },
    async plugin(app, options) {
      const { json, document } = manageContract();
      needs = projectNeeds(document);
      const handlers: Record<string, RouteHandlerMethod> = {
        ...projectRoutes(createProjectService({ storage, clock })),
        ...keyRoutes(
          createKeyService({ storage, clock, keyEnvironment: deps.keyEnvironment }),
          document,
          clock,
        ),
        ...auditRoutes(createAuditService({ storage }), document),
        ...memberRoutes(
          createMemberService({ storage, clock, outbox: deps.outbox, limiter: deps.limiter }),
          document,
          (request) => deps.linkOrigin?.() ?? `${requestScheme(request)}://${request.host}`,
        ),
        ...domainRoutes(deps.domains, document),
        ...requestRoutes(createRequestService({ storage, clock, settle: deps.settleRequestLog }), document),
        getManageDocument: async (_request, reply) =>
          reply
            .header('content-type', JSON_CONTENT_TYPE)
            .header('cache-control', 'public, max-age=300')
            .send(json),
      };
      routes.push(...manageRoutes(document, handlers));
      registerRoutes(app, routes, options.otherMethods);
      // The app's route table (tooling, the route tests) lists the management API's routes too.
      (app.routeTable as RouteDefinition[]).push(...routes);
    },
  };
}
