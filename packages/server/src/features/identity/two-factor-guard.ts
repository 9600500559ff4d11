import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { urlFor } from '../shared/urls.ts';
import type { AccountRepository } from './account-repository.ts';
import { memberOf } from '../members/page-roles.ts';
import { signedInOf } from './session-cookie.ts';

/**
 * The guard's step after the role, for projects whose owners require two-factor sign-in: a member
 * without it is refused (403), and a page visit is sent to set it up (error-page.ts follows the
 * Location), to come back once it is on.
 */
export async function requireTwoFactorOf(
  request: FastifyRequest,
  accounts: Pick<AccountRepository, 'twoFactorRequired' | 'twoFactor'>,
): Promise<void> {
  const { project } = memberOf(request);
  if (!(await accounts.twoFactorRequired(project.id))) return;
  const state = await accounts.twoFactor(signedInOf(request).account.id);
  if (state !== undefined && state.confirmedAt !== null) return;
  throw new ApiError(
    'forbidden',
    `${project.name} requires two-factor sign-in of its members: set it up on your account page first`,
    { headers: { location: `${urlFor('twoFactorPage')}?project=${encodeURIComponent(project.slug)}` } },
  );
}
