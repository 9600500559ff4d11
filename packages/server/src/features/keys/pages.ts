import { urlFor } from '../shared/urls.ts';
import { memberOf } from '../members/page-roles.ts';
import { signedInOf } from '../identity/session-cookie.ts';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { limitsFor } from '../../ratelimit/plans.ts';
import type { Project } from '../projects/project-repository.ts';
import { ApiError } from '../../errors.ts';
import { type DashboardContext } from '../shared/dashboard-context.ts';
import { field } from '../../web/form-body.ts';
import { keyName, keysView, revokeView } from './view.ts';
import { periodsByKey } from '../requests/usage-series.ts';
import { createKeyService } from './service.ts';
import type { Actor } from '../shared/actor.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { KEYS_PER_PLAN } from './caps.ts';
import { keyChangePages, sentence } from './change-pages.ts';
import { newKeyOf } from './form.ts';

/** A project's API keys: the list with usage, create, revoke; and their changes (change-pages.ts). */
export function keyPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, limiter, clock } = context;
  const keyService = createKeyService({
    storage,
    clock,
    keyEnvironment: context.keyEnvironment,
    echo: context.echo,
  });
  const actorOf = (request: FastifyRequest): Actor => {
    const { account } = signedInOf(request);
    return { kind: 'account', accountId: account.id, email: account.email, address: request.ip };
  };

  const keysPage = async (request: FastifyRequest, reply: FastifyReply, project: Project) => {
    await context.settleRequestLog();
    const keys = await storage.keys.list(project.id);
    const plan = limitsFor(project);
    const group = { bucket: `project:${project.id}`, ...plan };
    // A key with limits of its own has windows of its own; the others count against the project's.
    const rows = await Promise.all(
      keys.map(async (key) => ({
        key,
        usage:
          key.ownPerMinute === null && key.ownPerDay === null
            ? undefined
            : await limiter.usage({
                bucket: `key:${key.id}`,
                perMinute: key.ownPerMinute ?? plan.perMinute,
                perDay: key.ownPerDay ?? plan.perDay,
                group,
              }),
      })),
    );
    const main = keysView({
      project,
      rows,
      projectUsage: await limiter.usage(group),
      history: await periodsByKey(storage.requestLog, project.id, clock.now()),
      csrfToken: context.signedIn(request).csrfToken,
      now: clock.now(),
      canWrite: memberOf(request).role !== 'viewer',
      canOwn: memberOf(request).role === 'owner',
      cap: KEYS_PER_PLAN[project.plan],
      flash: await context.flashes.take(request, urlFor('keysPage', { slug: project.slug })),
    });
    return context.page(request, reply, `API keys · ${project.name}`, main);
  };

  /** A key of this project, still active; anything else is 404. */
  const projectKey = async (request: FastifyRequest, project: Project) => {
    const { keyId } = request.params as { keyId: string };
    const key = await storage.keys.get(keyId);
    if (!key || key.projectId !== project.id || key.revokedAt !== null)
      throw new ApiError('not_found', 'no such active key in this project');
    return key;
  };

  return {
    ...keyChangePages(context, { keys: keyService, actorOf }),
    keysPage: (request, reply) => keysPage(request, reply, context.memberProject(request)),
    // Post/redirect/get: the new key's secret travels to the keys page in the session's one-time
    // flash, never in a URL, so a reload shows the list and creates nothing.
    async createKey(request, reply) {
      const project = context.memberProject(request);
      const page = urlFor('keysPage', { slug: project.slug });
      const input = newKeyOf(request.body, clock.now());
      // The keys service checks the role, the label, the limits and the plan's number of keys, and
      // writes the key with its audit record.
      const outcome = input.ok
        ? await keyService.create(actorOf(request), project.slug, input.value)
        : undefined;
      if (!outcome?.ok) {
        const values = Object.fromEntries(
          ['label', 'expiresInDays', 'perMinute', 'perDay'].map((name) => [name, field(request.body, name)]),
        );
        const problem = outcome ? sentence(outcome.problem) : (input as { problem: string }).problem;
        await context.flashes.put(request, page, { problem, values });
        return context.back(reply, page);
      }
      const { secret, key } = outcome.value;
      const { id, prefix, createdAt } = key;
      request.log.info(
        { keyId: id, project: project.slug, account: signedInOf(request).account.id },
        'key created in the dashboard',
      );
      await context.flashes.put(request, page, {
        key: { id, secret, label: key.label, prefix: prefix!, createdAt },
      });
      return context.back(reply, page);
    },
    async revokePage(request, reply) {
      const project = context.memberProject(request);
      const key = await projectKey(request, project);
      const main = revokeView(project, key, context.signedIn(request).csrfToken);
      return context.page(request, reply, `Revoke a key · ${project.name}`, main);
    },
    async revokeKey(request, reply) {
      const project = context.memberProject(request);
      const key = await projectKey(request, project);
      valueOrThrow(await keyService.revoke(actorOf(request), project.slug, key.id));
      request.log.info(
        { keyId: key.id, project: project.slug, account: signedInOf(request).account.id },
        'key revoked in the dashboard',
      );
      const page = urlFor('keysPage', { slug: project.slug });
      await context.flashes.put(request, page, {
        notice: `${keyName(key)} was revoked: it stops working at once.`,
      });
      return context.back(reply, page);
    },
  };
}
