import type { RouteHandlerMethod } from 'fastify';
import { tokenActorOf } from '../access-tokens/check.ts';
import { memberJson } from '../members/json.ts';
import { sendJson } from '../shared/json.ts';
import { projectJson } from './json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import type { ProjectService } from './service.ts';

/** The management API's project operations (openapi/manage.yaml, tag Projects). */
export function projectRoutes(projects: ProjectService): Record<string, RouteHandlerMethod> {
  return {
    async listProjects(request, reply) {
      const visible = await projects.list(tokenActorOf(request));
      return sendJson(reply, 200, { data: visible.map(projectJson) });
    },
    async listMembers(request, reply) {
      const { slug } = request.params as { slug: string };
      const members = valueOrThrow(await projects.members(tokenActorOf(request), slug));
      return sendJson(reply, 200, {
        data: members.map(memberJson),
      });
    },
    async createProject(request, reply) {
      const body = (request.body ?? {}) as { slug: string; name: string };
      const created = valueOrThrow(await projects.createOwn(tokenActorOf(request), body));
      return sendJson(reply, 201, projectJson(created));
    },
    async updateProject(request, reply) {
      const { slug } = request.params as { slug: string };
      const body = (request.body ?? {}) as { name?: string; twoFactorRequired?: boolean; plan?: string };
      return sendJson(
        reply,
        200,
        projectJson(valueOrThrow(await projects.update(tokenActorOf(request), slug, body))),
      );
    },
    async getProject(request, reply) {
      const { slug } = request.params as { slug: string };
      return sendJson(reply, 200, projectJson(valueOrThrow(await projects.get(tokenActorOf(request), slug))));
    },
  };
}
