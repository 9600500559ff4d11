import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { periodsCsv, type Step, usagePeriods } from './usage-series.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { securityHeaders } from '../shared/page.ts';

/** The numbers behind the usage charts, as CSV: the project's, or one of its keys'. */
export function usagePages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, clock } = context;
  return {
    async usageCsv(request, reply) {
      const project = context.memberProject(request);
      const { step = 'hour', key } = request.query as { step?: unknown; key?: unknown };
      if (step !== 'hour' && step !== 'day') {
        throw new ApiError('invalid_parameter', 'step must be hour or day', { param: 'step' });
      }
      if (key !== undefined) {
        const found = typeof key === 'string' ? await storage.keys.get(key) : undefined;
        if (!found || found.projectId !== project.id)
          throw new ApiError('not_found', 'no such key in this project');
      }
      await context.settleRequestLog();
      const periods = await usagePeriods(storage.requestLog, {
        projectId: project.id,
        keyId: key as string | undefined,
        step: step as Step,
        now: clock.now(),
      });
      const name = `${project.slug}-${key ? `${key as string}-` : ''}requests-per-${step as string}.csv`;
      return reply
        .headers(securityHeaders())
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(periodsCsv(periods));
    },
  };
}
