import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { cursorOf, parseCursor, parseStatusFilter, requestIdSearch, searchesByPrefix } from './filters.ts';
import { EXPORT_RETRY_AFTER_SECONDS } from './export-slots.ts';
import { EXPORT_FORMATS, exportBody, requestPagesOf } from './request-export.ts';
import { retainedSince } from './retention.ts';
import { contractOperations } from '../../http/contract-routes.ts';
import { publicContract } from '../../openapi/contract.ts';
import type { Project } from '../projects/project-repository.ts';
import type { RequestLogQuery } from './request-log-records.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { apiOrigin, securityHeaders } from '../shared/page.ts';
import { signedInOf } from '../identity/session-cookie.ts';
import {
  RANGES,
  rangeOf,
  type RequestFilters,
  REQUESTS_PAGE_SIZE,
  requestsView,
  requestView,
} from './view.ts';

let operations: string[] | undefined;

/** The operations a project's key can call, and the 405 answered on their paths; read on first use. */
function keyOperations(): string[] {
  operations ??= [
    ...contractOperations(publicContract().document)
      .filter((spec) => spec.config.access === 'apiKey')
      .map((spec) => spec.config.operationId),
    'methodNotAllowed',
  ];
  return operations;
}

const FILTER_NAMES = ['key', 'status', 'operation', 'range', 'request_id', 'before', 'from', 'to'] as const;

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** An instant from a `datetime-local` field read as UTC (`2026-11-29T14:05`), or undefined. */
function utcInstant(text: string): number | undefined {
  const match = LOCAL_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0)) as number[];
  const at = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
  const back = new Date(at);
  return back.getUTCFullYear() === year &&
    back.getUTCMonth() === month! - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute
    ? at
    : undefined;
}

function text(query: Record<string, unknown>, name: string): string {
  const value = Object.hasOwn(query, name) ? query[name] : undefined;
  if (value === undefined) return '';
  if (typeof value !== 'string')
    throw new ApiError('invalid_parameter', `${name} must be given once`, { param: name });
  return value.trim();
}

const invalid = (name: string, message: string) =>
  new ApiError('invalid_parameter', message, { param: name });

/** The Requests tab's filters, read from its query: the log's query (without paging) and the form's values. */
function requestQuery(
  project: Project,
  query: Record<string, unknown>,
  now: number,
): { listing: Omit<RequestLogQuery, 'limit'>; filters: RequestFilters; before: string } {
  const [key = '', status = '', operation = '', range = '', requestId = '', before = '', from = '', to = ''] =
    FILTER_NAMES.map((name) => text(query, name));
  const listing: Omit<RequestLogQuery, 'limit'> = {
    projectId: project.id,
    since: retainedSince(project.plan, now),
  };
  if (key) listing.keyId = key;
  if (status) {
    listing.status = parseStatusFilter(status);
    if (listing.status === undefined)
      throw invalid('status', 'status must be 2xx, 4xx, 429, 5xx or a status code');
  }
  if (operation) {
    if (!keyOperations().includes(operation))
      throw invalid('operation', `operation must be one of ${keyOperations().join(', ')}`);
    listing.operation = operation;
  }
  if (range) {
    const chosen = rangeOf(range);
    if (!chosen) throw invalid('range', `range must be one of ${Object.keys(RANGES).join(', ')}`);
    listing.since = Math.max(listing.since!, now - chosen.ms);
  }
  if (from) {
    const at = utcInstant(from);
    if (at === undefined) throw invalid('from', 'from must be a date and time, such as 2026-11-29T14:05');
    listing.since = Math.max(listing.since!, at);
  }
  if (to) {
    const at = utcInstant(to);
    if (at === undefined) throw invalid('to', 'to must be a date and time, such as 2026-11-29T14:05');
    if (from && at <= utcInstant(from)!) throw invalid('to', 'to must be later than from');
    listing.until = at;
  }
  if (requestId) {
    if (requestId.length > 128) throw invalid('request_id', 'request_id is at most 128 characters');
    Object.assign(listing, requestIdSearch(requestId));
  }
  return { listing, filters: { key, status, operation, range, from, to, requestId }, before };
}

/** The query string of the filters (no paging), as the form would send them. */
function filterQuery(filters: RequestFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({
    ...filters,
    requestId: undefined,
    request_id: filters.requestId,
  }))
    if (value) params.set(name, value);
  return params;
}

/** The Requests tab: the project's request log with filters and keyset paging, one request's details, exports. */
export function requestPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, clock } = context;
  const exportAs =
    (format: keyof typeof EXPORT_FORMATS): RouteHandlerMethod =>
    async (request, reply) => {
      const project = context.memberProject(request);
      const now = clock.now();
      const { listing } = requestQuery(project, request.query as Record<string, unknown>, now);
      await context.settleRequestLog();
      const slot = await context.exports.take({
        projectId: project.id,
        holder: `session:${signedInOf(request).session.idDigest}`,
      });
      if (!slot.ok) {
        throw new ApiError(
          'too_many_exports',
          slot.cap === 'holder'
            ? 'an export of yours is still streaming: try again once it has finished'
            : 'this project already has as many exports streaming as it may: try again once one has finished',
          { headers: { 'retry-after': String(EXPORT_RETRY_AFTER_SECONDS) } },
        );
      }
      const stamp = new Date(now).toISOString().slice(0, 19).replaceAll(':', '');
      const { type, lines } = EXPORT_FORMATS[format];
      return reply
        .headers(securityHeaders())
        .header('content-type', type)
        .header('content-disposition', `attachment; filename="${project.slug}-requests-${stamp}Z.${format}"`)
        .send(exportBody(lines(requestPagesOf(storage.requestLog, listing)), slot.release));
    };
  return {
    requestsCsv: exportAs('csv'),
    requestsNdjson: exportAs('ndjson'),
    async requestsPage(request, reply) {
      const project = context.memberProject(request);
      const { listing, filters, before } = requestQuery(
        project,
        request.query as Record<string, unknown>,
        clock.now(),
      );
      const paged: RequestLogQuery = { ...listing, limit: REQUESTS_PAGE_SIZE + 1 };
      if (before) {
        paged.before = parseCursor(before);
        if (!paged.before) throw invalid('before', 'before must be a position this page gave');
      }
      await context.settleRequestLog();
      const [found, keys] = await Promise.all([
        storage.requestLog.list(paged),
        storage.keys.list(project.id),
      ]);
      const rows = found.slice(0, REQUESTS_PAGE_SIZE);
      let older: string | undefined;
      if (found.length > REQUESTS_PAGE_SIZE) {
        const next = filterQuery(filters);
        next.set('before', cursorOf(rows.at(-1)!));
        older = next.toString();
      }
      const main = requestsView({
        project,
        keys,
        operations: keyOperations(),
        filters,
        filterQuery: filterQuery(filters).toString(),
        apiBase: apiOrigin(request),
        rows,
        older,
        paged: before !== '',
        prefixMatches: searchesByPrefix(listing)
          ? new Set(found.map((row) => row.requestId)).size
          : undefined,
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
