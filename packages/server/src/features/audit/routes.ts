import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { OpenApiDocument } from '../../openapi/contract.ts';
import { queryReader } from '../../validation/query.ts';
import { tokenActorOf } from '../access-tokens/check.ts';
import { numberOf, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { auditEventJson } from './json.ts';
import type { createAuditService } from './service.ts';

/** The management API's audit trail (openapi/manage.yaml, tag Audit). */
export function auditRoutes(
  audit: ReturnType<typeof createAuditService>,
  contract: OpenApiDocument,
): Record<string, RouteHandlerMethod> {
  const listQuery = queryReader('/projects/{slug}/audit', 'get', contract);
  return {
    async listAuditEvents(request, reply) {
      const { slug } = request.params as { slug: string };
      const query = listQuery(request.query as Record<string, string>);
      const since = query.since === undefined ? undefined : Date.parse(query.since as string);
      if (since !== undefined && Number.isNaN(since)) {
        throw new ApiError('invalid_parameter', 'since must be an ISO 8601 instant', { param: 'since' });
      }
      const page = valueOrThrow(
        await audit.list(tokenActorOf(request), slug, {
          limit: numberOf(query.limit),
          cursor: query.cursor as string | undefined,
          since,
        }),
      );
      return sendJson(reply, 200, { ...page, data: page.data.map(auditEventJson) });
    },
  };
}
