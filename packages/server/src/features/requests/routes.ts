import type { RouteHandlerMethod } from 'fastify';
import { exportBody } from './request-export.ts';
import { parseDateTime } from '../../validation/date-time.ts';
import { ApiError } from '../../errors.ts';
import { tokenActorOf } from '../access-tokens/check.ts';
import { iso, numberOf, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { requestJson } from './json.ts';
import type { RequestFilters, RequestService } from './service.ts';
import type { Step } from './usage-series.ts';

const NDJSON = 'application/x-ndjson';

/** The management API's request log (openapi/manage.yaml, tag Requests): pages, or NDJSON. */
export function requestRoutes(requests: RequestService): Record<string, RouteHandlerMethod> {
  return {
    async getUsage(request, reply) {
      const { slug } = request.params as { slug: string };
      const query = request.query as Record<string, unknown>;
      const period = (query.period as Step | undefined) ?? 'hour';
      const periods = valueOrThrow(
        await requests.usage(tokenActorOf(request), slug, period, query.key as string | undefined),
      );
      return sendJson(reply, 200, {
        period,
        data: periods.map(({ start, ...counts }) => ({ start: iso(start), ...counts })),
      });
    },
    async listRequests(request, reply) {
      const { slug } = request.params as { slug: string };
      const query = request.query as Record<string, unknown>;
      // The contract's check has run: a date-time.
      const since = query.since === undefined ? undefined : parseDateTime(query.since as string)!;
      const until = query.until === undefined ? undefined : parseDateTime(query.until as string)!;
      const filters: RequestFilters = {
        key: query.key as string | undefined,
        status: query.status as string | undefined,
        operation: query.operation as string | undefined,
        requestId: query.requestId as string | undefined,
        since,
        until,
      };
      const actor = tokenActorOf(request);
      if ((request.headers.accept ?? '').split(',').some((type) => type.trim().startsWith(NDJSON))) {
        if (query.limit !== undefined || query.cursor !== undefined) {
          throw new ApiError('invalid_parameter', 'an NDJSON export has every request: no limit or cursor', {
            param: query.limit !== undefined ? 'limit' : 'cursor',
          });
        }
        const { pages, release } = valueOrThrow(await requests.export(actor, slug, filters));
        async function* chunks() {
          for await (const page of pages)
            yield page.map((row) => `${JSON.stringify(requestJson(row))}\n`).join('');
        }
        return reply
          .header('content-type', NDJSON)
          .header('cache-control', 'no-store')
          .send(exportBody(chunks(), release));
      }
      const page = valueOrThrow(
        await requests.list(actor, slug, {
          ...filters,
          limit: numberOf(query.limit),
          cursor: query.cursor as string | undefined,
        }),
      );
      return sendJson(reply, 200, { ...page, data: page.data.map(requestJson) });
    },
  };
}
