import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import { accountPages } from '../features/identity/account-pages.ts';
import { accessTokenPages } from '../features/access-tokens/pages.ts';
import { activityPages } from '../features/audit/pages.ts';
import { dashboardAsset } from './assets.ts';
import { dashboardContext, type DashboardDeps } from '../features/shared/dashboard-context.ts';
import { domainPages } from '../features/domains/pages.ts';
import { invitationPages } from '../features/members/invitation-pages.ts';
import { passkeyPages } from '../features/identity/passkey-pages.ts';
import { passwordResetPages } from '../features/identity/password-reset-pages.ts';
import { keyPages } from '../features/keys/pages.ts';
import { memberPages } from '../features/members/pages.ts';
import { projectPages } from '../features/projects/pages.ts';
import { requestPages } from '../features/requests/pages.ts';
import { usagePages } from '../features/requests/usage-pages.ts';
import { signInPages } from '../features/identity/sign-in-pages.ts';
import { twoFactorPages } from '../features/identity/two-factor-pages.ts';

export type { DashboardDeps } from '../features/shared/dashboard-context.ts';

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
    ...passkeyPages(context),
    dashboardAsset,
    async dashboardNotFound(request) {
      throw new ApiError('not_found', `there is no page at ${request.url.split('?', 1)[0]}`);
    },
  };
}
