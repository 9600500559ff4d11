import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import { cursorOf, parseCursor, parseStatusFilter } from '../insights/filters.ts';
import { retainedSince } from '../insights/retention.ts';
import { contractOperations } from '../routes/table.ts';
import { contract } from '../openapi/contract.ts';
import type { RequestLogQuery } from '../storage/request-log-records.ts';
import type { DashboardContext } from './context.ts';
import { RANGES, rangeOf, type RequestFilters, requestsView, requestView } from './views/requests.ts';

/** Rows on one page of the Requests tab. */
export const REQUESTS_PAGE_SIZE = 50;

/** The operations a project's key can call, and the 405 answered on their paths. */
const OPERATIONS = [
  ...contractOperations(contract)
    .filter((spec) => spec.config.access === 'apiKey')
    .map((spec) => spec.config.operationId),
  'methodNotAllowed',
];

const FILTER_NAMES = ['key', 'status', 'operation', 'range', 'request_id', 'before'] as const;

function text(query: Record<string, unknown>, name: string): string {
  const value = Object.hasOwn(query, name) ? query[name] : undefined;
  if (value === undefined) return '';
  if (typeof value !== 'string')
    throw new ApiError('invalid_parameter', `${name} must be given once`, { param: name });
  return value.trim();
}

const invalid = (name: string, message: string) =>
  new ApiError('invalid_parameter', message, { param: name });

/** The Requests tab: the project's request log with filters and keyset paging, and one request's details. */
export function requestPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, clock } = context;
  return {
    async requestsPage(request, reply) {
      const project = context.memberProject(request);
      const query = request.query as Record<string, unknown>;
      const [key = '', status = '', operation = '', range = '', requestId = '', before = ''] =
        FILTER_NAMES.map((name) => text(query, name));
      const now = clock.now();
      const listing: RequestLogQuery = {
        projectId: project.id,
        since: retainedSince(project.plan, now),
        limit: REQUESTS_PAGE_SIZE + 1,
      };
      if (key) listing.keyId = key;
      if (status) {
        listing.status = parseStatusFilter(status);
        if (listing.status === undefined)
          throw invalid('status', 'status must be 2xx, 4xx, 429, 5xx or a status code');
      }
      if (operation) {
        if (!OPERATIONS.includes(operation))
          throw invalid('operation', `operation must be one of ${OPERATIONS.join(', ')}`);
        listing.operation = operation;
      }
      if (range) {
        const chosen = rangeOf(range);
        if (!chosen) throw invalid('range', `range must be one of ${Object.keys(RANGES).join(', ')}`);
        listing.since = Math.max(listing.since!, now - chosen.ms);
      }
      if (requestId) {
        if (requestId.length > 128) throw invalid('request_id', 'request_id is at most 128 characters');
        listing.requestId = requestId;
      }
      if (before) {
        listing.before = parseCursor(before);
        if (!listing.before) throw invalid('before', 'before must be a position this page gave');
      }
      await context.settleRequestLog();
      const [found, keys] = await Promise.all([
        storage.requestLog.list(listing),
        storage.listKeys(project.id),
      ]);
      const rows = found.slice(0, REQUESTS_PAGE_SIZE);
      const filters: RequestFilters = { key, status, operation, range, requestId };
      let older: string | undefined;
      if (found.length > REQUESTS_PAGE_SIZE) {
        const next = new URLSearchParams();
        for (const [name, value] of Object.entries({
          ...filters,
          requestId: undefined,
          request_id: requestId,
        })) {
          if (value) next.set(name, value);
        }
        next.set('before', cursorOf(rows.at(-1)!));
        older = next.toString();
      }
      const main = requestsView({
        project,
        keys,
        operations: OPERATIONS,
        filters,
        rows,
        older,
        paged: before !== '',
      });
      return context.page(request, reply, `Requests · ${project.name}`, main);
    },
    async requestPage(request, reply) {
      const project = context.memberProject(request);
      const { requestRowId } = request.params as { requestRowId: string };
      const entry = await storage.requestLog.get(project.id, requestRowId);
      if (!entry || entry.at < retainedSince(project.plan, clock.now())) {
        throw new ApiError('not_found', 'no such request in this project’s log');
      }
      return context.page(
        request,
        reply,
        `Request ${entry.requestId} · ${project.name}`,
        requestView(project, entry),
      );
    },
  };
}
