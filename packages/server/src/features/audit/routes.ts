import type { RouteHandlerMethod } from 'fastify';
import { parseDateTime } from '../../validation/date-time.ts';
import { tokenActorOf } from '../access-tokens/check.ts';
import { numberOf, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import type { AuditAction } from './audit-records.ts';
import { auditEventJson } from './json.ts';
import type { createAuditService } from './service.ts';

/** The management API's audit trail (openapi/manage.yaml, tag Audit). */
export function auditRoutes(
  audit: ReturnType<typeof createAuditService>,
): Record<string, RouteHandlerMethod> {
  return {
    async listAuditEvents(request, reply) {
      const { slug } = request.params as { slug: string };
      const query = request.query as Record<string, unknown>;
      // The contract's check has run: a date-time.
      const instant = (name: string) =>
        query[name] === undefined ? undefined : parseDateTime(query[name] as string)!;
      const page = valueOrThrow(
        await audit.list(tokenActorOf(request), slug, {
          limit: numberOf(query.limit),
          cursor: query.cursor as string | undefined,
          since: instant('since'),
          until: instant('until'),
          actor: query.actor as string | undefined,
          action: query.action as AuditAction | undefined,
        }),
      );
      return sendJson(reply, 200, { ...page, data: page.data.map(auditEventJson) });
    },
  };
}
