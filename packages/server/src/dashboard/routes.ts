import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { SESSION_TTL_MS, type Sessions } from '../accounts/sessions.ts';
import { generateKey, type KeyEnvironment } from '../auth/keys.ts';
import { ApiError } from '../errors.ts';
import type { CertificateState } from '../domains/certificate.ts';
import type { DomainService } from '../domains/domain-service.ts';
import { nameProblem } from '../projects/project-rules.ts';
import { limitsFor } from '../ratelimit/plans.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Project } from '../storage/project-repository.ts';
import type { Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import { dashboardAsset } from './assets.ts';
import { field } from './form-body.ts';
import { sendPage } from './page.ts';
import { clearSessionCookie, sessionToken, setSessionCookie, signInCsrfToken } from './session-cookie.ts';
import { type DomainNotice, domainNotice, domainsView, removeDomainView } from './views/domains.ts';
import { keysView, revokeView } from './views/keys.ts';
import { projectView } from './views/project.ts';
import { projectsView } from './views/projects.ts';
import { signInView } from './views/sign-in.ts';

export interface DashboardDeps {
  storage: Storage;
  sessions: Sessions;
  limiter: RateLimiter;
  clock: Clock;
  keyEnvironment: KeyEnvironment;
  /** The address of a project's docs site, as seen from this request (same scheme and port). */
  siteUrl(request: FastifyRequest, slug: string): string;
  domains: DomainService;
  /** The certificate the TLS proxy holds for a name, when a probe address is configured. */
  certificate?(hostname: string): Promise<CertificateState>;
}

const MAX_LABEL_LENGTH = 100;

/** Only paths inside the dashboard, without dot segments or empty ones: never an open redirect. */
function safeNext(next: string): string {
  return /^\/dashboard(\/[A-Za-z0-9_-][A-Za-z0-9._~-]*)*$/.test(next) ? next : '/dashboard';
}

function labelProblem(label: string): string | undefined {
  if ([...label].length > MAX_LABEL_LENGTH) return `the label must be at most ${MAX_LABEL_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(label)) return 'the label must not contain control characters';
  return undefined;
}

/** The dashboard's handlers, by the operationId its routes have in routes/table.ts. */
export function dashboardHandlers(deps: DashboardDeps): Record<string, RouteHandlerMethod> {
  const { storage, sessions, limiter, clock } = deps;
  const signedIn = (request: FastifyRequest) => {
    const current = request.signedIn!;
    return { account: current.account, csrfToken: current.session.csrfToken };
  };
  /** The project named in the path, if the signed-in account is a member; else 404, as if it did not exist. */
  const memberProject = async (request: FastifyRequest): Promise<Project> => {
    const { slug } = request.params as { slug: string };
    const project = await storage.projects.bySlug(slug);
    if (!project || !(await storage.projects.isMember(request.signedIn!.account.id, project.id))) {
      throw new ApiError('not_found', `you have no project ${slug}`);
    }
    return project;
  };
  const page = (
    request: FastifyRequest,
    reply: FastifyReply,
    title: string,
    main: Parameters<typeof sendPage>[2]['main'],
    status = 200,
  ) => sendPage(request, reply, { title, main, signedIn: signedIn(request), status });

  const keysPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    extra: Partial<Parameters<typeof keysView>[0]> = {},
    status = 200,
  ) => {
    const keys = await storage.listKeys(project.id);
    const rows = await Promise.all(
      keys.map(async (key) => ({
        key,
        usage: await limiter.usage({ bucket: `key:${key.id}`, ...limitsFor(key) }),
      })),
    );
    const main = keysView({
      project,
      rows,
      csrfToken: signedIn(request).csrfToken,
      now: clock.now(),
      ...extra,
    });
    return page(request, reply, `API keys · ${project.name}`, main, status);
  };

  const domainsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    extra: Partial<Parameters<typeof domainsView>[0]> = {},
    status = 200,
  ) => {
    const domains = await Promise.all(
      (await deps.domains.list(project)).map(async (domain) => ({
        ...domain,
        certificate: domain.state === 'verified' ? await deps.certificate?.(domain.hostname) : undefined,
      })),
    );
    const main = domainsView({
      project,
      domains,
      target: deps.domains.target(project),
      csrfToken: signedIn(request).csrfToken,
      ...extra,
    });
    return page(request, reply, `Domains · ${project.name}`, main, status);
  };
  /** The hostname in the path, when it is one of this project's domains; else 404. */
  const projectDomain = async (request: FastifyRequest, project: Project): Promise<string> => {
    const { hostname } = request.params as { hostname: string };
    if (!(await deps.domains.list(project)).some((domain) => domain.hostname === hostname)) {
      throw new ApiError('not_found', `${hostname} is not a domain of this project`);
    }
    return hostname;
  };
  const backToDomains = (reply: FastifyReply, project: Project, done: DomainNotice, hostname: string) =>
    reply.redirect(
      `/dashboard/projects/${project.slug}/domains?done=${done}&domain=${encodeURIComponent(hostname)}`,
      303,
    );

  const handlers: Record<string, RouteHandlerMethod> = {
    async signInPage(request, reply) {
      if (sessionToken(request) && (await sessions.current(sessionToken(request)!)))
        return reply.redirect('/dashboard', 303);
      const { next = '', signedOut } = request.query as { next?: string; signedOut?: string };
      const main = signInView({
        csrfToken: signInCsrfToken(request, reply),
        next: next && safeNext(next),
        signedOut: signedOut !== undefined,
      });
      return sendPage(request, reply, { title: 'Sign in', main });
    },
    async signIn(request, reply) {
      const email = field(request.body, 'email');
      const next = safeNext(field(request.body, 'next') || '/dashboard');
      const outcome = await sessions.signIn(email, field(request.body, 'password'), request.ip);
      if (outcome.kind === 'signed_in') {
        setSessionCookie(request, reply, outcome.token, SESSION_TTL_MS);
        return reply.redirect(next, 303);
      }
      const throttled = outcome.kind === 'throttled';
      if (throttled) reply.header('retry-after', String(outcome.retryAfterSeconds));
      const problem = throttled
        ? `Too many sign-in attempts. Try again in ${outcome.retryAfterSeconds} second${outcome.retryAfterSeconds === 1 ? '' : 's'}.`
        : 'That email and password do not match an account.';
      const main = signInView({ csrfToken: signInCsrfToken(request, reply), email, next, problem });
      // 400, not 401: a 401 would have to name an HTTP authentication scheme, and this is a form.
      return sendPage(request, reply, { title: 'Sign in', main, status: throttled ? 429 : 400 });
    },
    async signOut(request, reply) {
      await sessions.signOut(sessionToken(request)!);
      clearSessionCookie(request, reply);
      return reply.redirect('/dashboard/sign-in?signedOut', 303);
    },
    async projectsPage(request, reply) {
      const projects = await storage.projects.listForAccount(request.signedIn!.account.id);
      return page(
        request,
        reply,
        'Projects',
        projectsView(projects, (slug) => deps.siteUrl(request, slug)),
      );
    },
    async projectPage(request, reply) {
      const project = await memberProject(request);
      const { saved } = request.query as { saved?: string };
      const main = projectView({
        project,
        siteUrl: deps.siteUrl(request, project.slug),
        csrfToken: signedIn(request).csrfToken,
        saved: saved !== undefined,
      });
      return page(request, reply, project.name, main);
    },
    async renameProject(request, reply) {
      const project = await memberProject(request);
      const name = field(request.body, 'name').trim();
      const problem = nameProblem(name);
      if (problem) {
        const main = projectView({
          project,
          siteUrl: deps.siteUrl(request, project.slug),
          csrfToken: signedIn(request).csrfToken,
          problem,
          name,
        });
        return page(request, reply, project.name, main, 400);
      }
      await storage.projects.rename(project.slug, name);
      return reply.redirect(`/dashboard/projects/${project.slug}?saved`, 303);
    },
    async keysPage(request, reply) {
      const project = await memberProject(request);
      const { revoked } = request.query as { revoked?: string };
      return keysPage(request, reply, project, {
        revoked: revoked && /^key_[0-9a-f]{16}$/.test(revoked) ? revoked : undefined,
      });
    },
    async createKey(request, reply) {
      const project = await memberProject(request);
      const label = field(request.body, 'label').trim();
      const problem = labelProblem(label);
      if (problem) return keysPage(request, reply, project, { problem, label }, 400);
      const { secret, id, digest, prefix } = generateKey(deps.keyEnvironment);
      await storage.createKey({
        id,
        digest,
        prefix,
        projectId: project.id,
        plan: project.plan,
        perMinute: project.perMinute,
        perDay: project.perDay,
        label: label || null,
        environment: deps.keyEnvironment,
        createdAt: clock.now(),
        expiresAt: null,
      });
      request.log.info(
        { keyId: id, project: project.slug, account: request.signedIn!.account.id },
        'key created in the dashboard',
      );
      return keysPage(request, reply, project, { created: { id, secret, label: label || null } }, 201);
    },
    async revokePage(request, reply) {
      const project = await memberProject(request);
      const key = await projectKey(request, project);
      return page(
        request,
        reply,
        `Revoke a key · ${project.name}`,
        revokeView(project, key, signedIn(request).csrfToken),
      );
    },
    async revokeKey(request, reply) {
      const project = await memberProject(request);
      const key = await projectKey(request, project);
      await storage.revokeKey(key.id, clock.now());
      request.log.info(
        { keyId: key.id, project: project.slug, account: request.signedIn!.account.id },
        'key revoked in the dashboard',
      );
      return reply.redirect(`/dashboard/projects/${project.slug}/keys?revoked=${key.id}`, 303);
    },
    async domainsPage(request, reply) {
      const project = await memberProject(request);
      const { done, domain } = request.query as { done?: string; domain?: string };
      return domainsPage(request, reply, project, { notice: domainNotice(done, domain) });
    },
    async addDomain(request, reply) {
      const project = await memberProject(request);
      const hostname = field(request.body, 'hostname');
      const outcome = await deps.domains.add(project, hostname);
      if (outcome.kind === 'refused') {
        return domainsPage(
          request,
          reply,
          project,
          { problem: outcome.message, hostname },
          outcome.conflict ? 409 : 400,
        );
      }
      request.log.info(
        { domain: outcome.domain.hostname, project: project.slug, state: outcome.domain.state },
        'custom domain added',
      );
      return backToDomains(reply, project, 'added', outcome.domain.hostname);
    },
    async checkDomain(request, reply) {
      const project = await memberProject(request);
      const checked = await deps.domains.checkNow(project, await projectDomain(request, project));
      return backToDomains(reply, project, 'checked', checked!.hostname);
    },
    async makePrimary(request, reply) {
      const project = await memberProject(request);
      const hostname = await projectDomain(request, project);
      if (!(await deps.domains.setPrimary(project, hostname))) {
        throw new ApiError(
          'invalid_parameter',
          `${hostname} must be verified before it can be the primary domain`,
        );
      }
      return backToDomains(reply, project, 'primary', hostname);
    },
    async removeDomainPage(request, reply) {
      const project = await memberProject(request);
      const hostname = await projectDomain(request, project);
      return page(
        request,
        reply,
        `Remove a domain · ${project.name}`,
        removeDomainView(project, hostname, signedIn(request).csrfToken),
      );
    },
    async removeDomain(request, reply) {
      const project = await memberProject(request);
      const hostname = await projectDomain(request, project);
      await deps.domains.remove(project, hostname);
      request.log.info({ domain: hostname, project: project.slug }, 'custom domain removed');
      return backToDomains(reply, project, 'removed', hostname);
    },
    dashboardAsset,
    async dashboardNotFound(request) {
      throw new ApiError('not_found', `there is no page at ${request.url.split('?', 1)[0]}`);
    },
  };

  /** A key of this project, still active; anything else is 404. */
  const projectKey = async (request: FastifyRequest, project: Project) => {
    const { keyId } = request.params as { keyId: string };
    const key = await storage.getKey(keyId);
    if (!key || key.projectId !== project.id || key.revokedAt !== null)
      throw new ApiError('not_found', 'no such active key in this project');
    return key;
  };

  return handlers;
}
