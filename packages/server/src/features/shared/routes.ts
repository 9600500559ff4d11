import type { RouteSpec } from '../../http/route-spec.ts';
import { ACCESS_TOKEN_ROUTES } from '../access-tokens/paths.ts';
import { AUDIT_ROUTES } from '../audit/paths.ts';
import { DOMAIN_ROUTES } from '../domains/paths.ts';
import { IDENTITY_ROUTES } from '../identity/paths.ts';
import { KEY_ROUTES } from '../keys/paths.ts';
import { MEMBER_ROUTES } from '../members/paths.ts';
import { PROJECT_ROUTES } from '../projects/paths.ts';
import { REQUEST_ROUTES } from '../requests/paths.ts';
import { SHELL_ROUTES } from './shell-paths.ts';

/**
 * Every route outside the contract, each declared by the feature that owns it (`features/<feature>/paths.ts`):
 * the docs page's files, the dashboard, the projects' docs sites (on site hosts) and the TLS proxy's
 * question (on any host). Their handlers come from their modules, by operationId.
 */
export const NON_CONTRACT_ROUTES: readonly RouteSpec[] = [
  ...SHELL_ROUTES,
  ...IDENTITY_ROUTES,
  ...PROJECT_ROUTES,
  ...MEMBER_ROUTES,
  ...ACCESS_TOKEN_ROUTES,
  ...KEY_ROUTES,
  ...REQUEST_ROUTES,
  ...AUDIT_ROUTES,
  ...DOMAIN_ROUTES,
];
