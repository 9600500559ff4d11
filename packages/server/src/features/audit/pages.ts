import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { cursorOf, parseCursor } from '../../insights/filters.ts';
import type { DashboardContext } from '../../dashboard/context.ts';
import { memberOf } from '../../dashboard/roles.ts';
import { activityView } from './view.ts';

export const ACTIVITY_PAGE_SIZE = 50;

/** The Activity tab: the project's audit trail, newest first; owners also see members' sign-ins. */
export function activityPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  return {
    async activityPage(request, reply) {
      const { project, role } = memberOf(request);
      // Members' sign-ins and their addresses are for owners only.
      const owner = role === 'owner';
      const { before } = request.query as { before?: unknown };
      const cursor =
        before === undefined ? undefined : typeof before === 'string' ? parseCursor(before) : undefined;
      if (before !== undefined && !cursor) {
        throw new ApiError('invalid_parameter', 'before must be a position this page gave', {
          param: 'before',
        });
      }
      const found = await context.storage.audit.list({
        projectId: project.id,
        before: cursor,
        limit: ACTIVITY_PAGE_SIZE + 1,
        accountEvents: owner,
      });
      const events = found.slice(0, ACTIVITY_PAGE_SIZE);
      const older = found.length > ACTIVITY_PAGE_SIZE ? cursorOf(events.at(-1)!) : undefined;
      const main = activityView({ project, events, older, addresses: owner });
      return context.page(request, reply, `Activity · ${project.name}`, main);
    },
  };
}
