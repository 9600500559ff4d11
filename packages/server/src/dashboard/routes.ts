import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import { accountPages } from './account-pages.ts';
import { accessTokenPages } from '../features/access-tokens/pages.ts';
import { activityPages } from './activity-pages.ts';
import { dashboardAsset } from './assets.ts';
import { dashboardContext, type DashboardDeps } from './context.ts';
import { domainPages } from './domain-pages.ts';
import { invitationPages } from './invitation-pages.ts';
import { passwordResetPages } from './password-reset-pages.ts';
import { keyPages } from './key-pages.ts';
import { memberPages } from './member-pages.ts';
import { projectPages } from './project-pages.ts';
import { requestPages } from './request-pages.ts';
import { usagePages } from './usage-pages.ts';
import { signInPages } from './sign-in-pages.ts';
import { twoFactorPages } from './two-factor-pages.ts';

export type { DashboardDeps } from './context.ts';

/** The dashboard's handlers, by the operationId its routes have in routes/table.ts. */
export function dashboardHandlers(deps: DashboardDeps): Record<string, RouteHandlerMethod> {
  const context = dashboardContext(deps);
  return {
    ...signInPages(context),
    ...accountPages(context),
    ...accessTokenPages(context),
    ...projectPages(context),
    ...keyPages(context),
    ...memberPages(context),
    ...invitationPages(context),
    ...passwordResetPages(context),
    ...requestPages(context),
    ...usagePages(context),
    ...activityPages(context),
    ...domainPages(context),
    ...twoFactorPages(context),
    dashboardAsset,
    async dashboardNotFound(request) {
      throw new ApiError('not_found', `there is no page at ${request.url.split('?', 1)[0]}`);
    },
  };
}
