import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import { type DashboardContext } from '../shared/dashboard-context.ts';
import { signedInOf } from '../identity/session-cookie.ts';
import { ApiError } from '../../errors.ts';
import { limitsFor } from '../../ratelimit/plans.ts';
import { urlFor } from '../shared/urls.ts';
import type { ApiKeyRecord } from '../../storage/records.ts';
import type { Actor } from '../shared/actor.ts';
import type { Problem } from '../shared/outcome.ts';
import type { Project } from '../projects/project-repository.ts';
import { editKeyView, rollView } from './change-view.ts';
import { keyChangeOf, overlapOf } from './form.ts';
import type { KeyService } from './service.ts';
import { keyStatus } from './state.ts';
import { keyName, minute } from './view.ts';

/** What the keys pages share with these: the keys service and how a request's actor is named. */
export interface KeyPagesShared {
  keys: KeyService;
  actorOf(request: FastifyRequest): Actor;
}

/** A problem as a sentence beside its form. */
export const sentence = ({ message }: Problem): string => `${message[0]!.toUpperCase()}${message.slice(1)}.`;

/**
 * A key's changes in the dashboard: edit its label and own limits, roll it with an overlap, lift its ban
 * (owners). Each through the keys service, as the management API and the command line do.
 */
export function keyChangePages(
  context: DashboardContext,
  { keys, actorOf }: KeyPagesShared,
): Record<string, RouteHandlerMethod> {
  const { clock } = context;

  /** A key of this project that still works (neither revoked nor expired); anything else is 404. */
  const workingKey = async (request: FastifyRequest, project: Project): Promise<ApiKeyRecord> => {
    const { keyId } = request.params as { keyId: string };
    const key = await context.storage.keys.get(keyId);
    const state = key && keyStatus(key, clock.now()).state;
    if (!key || key.projectId !== project.id || state === 'revoked' || state === 'expired')
      throw new ApiError('not_found', 'no such working key in this project');
    return key;
  };
  const keysPage = (project: Project) => urlFor('keysPage', { slug: project.slug });
  const logged = (request: FastifyRequest, key: ApiKeyRecord, project: Project, what: string) =>
    request.log.info(
      { keyId: key.id, project: project.slug, account: signedInOf(request).account.id },
      `key ${what} in the dashboard`,
    );

  return {
    async editKeyPage(request, reply) {
      const project = context.memberProject(request);
      const key = await workingKey(request, project);
      const page = urlFor('editKeyPage', { slug: project.slug, keyId: key.id });
      const flash = await context.flashes.take(request, page);
      const main = editKeyView(project, key, limitsFor(project), context.signedIn(request).csrfToken, flash);
      return context.page(request, reply, `Edit a key · ${project.name}`, main);
    },
    async updateKey(request, reply) {
      const project = context.memberProject(request);
      const key = await workingKey(request, project);
      const page = urlFor('editKeyPage', { slug: project.slug, keyId: key.id });
      const change = keyChangeOf(request.body);
      const outcome = change.ok
        ? await keys.update(actorOf(request), project.slug, key.id, change.value)
        : undefined;
      if (!outcome?.ok) {
        const problem = outcome ? sentence(outcome.problem) : (change as { problem: string }).problem;
        const values = request.body as Record<string, string>;
        await context.flashes.put(request, page, {
          problem,
          values: {
            label: values.label ?? '',
            perMinute: values.perMinute ?? '',
            perDay: values.perDay ?? '',
          },
        });
        return context.back(reply, page);
      }
      logged(request, key, project, 'changed');
      await context.flashes.put(request, keysPage(project), {
        notice: `${keyName(outcome.value)} was saved: running servers apply it from its next request.`,
      });
      return context.back(reply, keysPage(project));
    },
    async rollPage(request, reply) {
      const project = context.memberProject(request);
      const key = await workingKey(request, project);
      const page = urlFor('rollPage', { slug: project.slug, keyId: key.id });
      const flash = await context.flashes.take(request, page);
      const main = rollView(project, key, context.signedIn(request).csrfToken, flash);
      return context.page(request, reply, `Roll a key · ${project.name}`, main);
    },
    async rollKey(request, reply) {
      const project = context.memberProject(request);
      const key = await workingKey(request, project);
      const overlap = overlapOf(request.body);
      const outcome = overlap.ok
        ? await keys.roll(actorOf(request), project.slug, key.id, overlap.value)
        : undefined;
      if (!outcome?.ok) {
        const page = urlFor('rollPage', { slug: project.slug, keyId: key.id });
        const problem = outcome ? sentence(outcome.problem) : (overlap as { problem: string }).problem;
        await context.flashes.put(request, page, { problem });
        return context.back(reply, page);
      }
      logged(request, key, project, 'rolled');
      const { key: next, previous, secret } = outcome.value;
      await context.flashes.put(request, keysPage(project), {
        key: { id: next.id, secret, label: next.label, prefix: next.prefix!, createdAt: next.createdAt },
        notice: `${keyName(previous)} keeps working until ${minute(previous.expiresAt!)}, then expires.`,
      });
      return context.back(reply, keysPage(project));
    },
    async unbanKey(request, reply) {
      const project = context.memberProject(request);
      const key = await workingKey(request, project);
      const outcome = await keys.unban(actorOf(request), project.slug, key.id);
      if (!outcome.ok) throw new ApiError(outcome.problem.code, outcome.problem.message);
      logged(request, key, project, 'unbanned');
      await context.flashes.put(request, keysPage(project), {
        notice: `${keyName(key)} is no longer banned. It is refused again only if it keeps sending over its own limits.`,
      });
      return context.back(reply, keysPage(project));
    },
  };
}
