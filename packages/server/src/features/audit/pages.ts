import { Readable } from 'node:stream';
import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { cursorOf, parseCursor } from '../requests/filters.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { memberOf } from '../members/page-roles.ts';
import { securityHeaders } from '../shared/page.ts';
import { activityCsv, activityPagesOf } from './activity-export.ts';
import { activityQuery } from './activity-filters.ts';
import { activityView } from './view.ts';

export const ACTIVITY_PAGE_SIZE = 50;

/**
 * The Activity tab: the project's audit trail, newest first, filtered by actor, action and days, and
 * its CSV export; owners also see members' sign-ins and where each action came from.
 */
export function activityPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  return {
    async activityPage(request, reply) {
      const { project, role } = memberOf(request);
      // Members' sign-ins and their addresses are for owners only.
      const owner = role === 'owner';
      const query = request.query as Record<string, unknown>;
      const { filters, listing } = activityQuery(query);
      const { before } = query;
      const cursor =
        before === undefined ? undefined : typeof before === 'string' ? parseCursor(before) : undefined;
      if (before !== undefined && !cursor) {
        throw new ApiError('invalid_parameter', 'before must be a position this page gave', {
          param: 'before',
        });
      }
      const found = await context.storage.audit.list({
        projectId: project.id,
        ...listing,
        before: cursor,
        limit: ACTIVITY_PAGE_SIZE + 1,
        accountEvents: owner,
      });
      const events = found.slice(0, ACTIVITY_PAGE_SIZE);
      const older = found.length > ACTIVITY_PAGE_SIZE ? cursorOf(events.at(-1)!) : undefined;
      const main = activityView({ project, events, older, addresses: owner, filters });
      return context.page(request, reply, `Activity · ${project.name}`, main);
    },
    async activityCsv(request, reply) {
      const { project, role } = memberOf(request);
      const owner = role === 'owner';
      const { listing } = activityQuery(request.query as Record<string, unknown>);
      const pages = activityPagesOf(context.storage.audit, {
        projectId: project.id,
        ...listing,
        accountEvents: owner,
      });
      const stamp = new Date(context.clock.now()).toISOString().slice(0, 19).replaceAll(':', '');
      return reply
        .headers(securityHeaders())
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${project.slug}-activity-${stamp}Z.csv"`)
        .send(Readable.from(activityCsv(pages, owner)));
    },
  };
}
