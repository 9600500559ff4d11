import { isIpLiteral } from './host-name.ts';

/** The names the service itself answers on, from configuration only. */
export interface ServiceNames {
  /** Projects' default hosts are `<slug>.<siteDomain>`. */
  siteDomain: string;
  /** The hosts of the API and dashboard (PETSTORE_API_HOST); empty means every host that is not a site. */
  apiHosts: readonly string[];
}

/** Which part of the service a host name reaches. */
export type HostKind = 'api' | 'site' | 'none';

/**
 * The part of the service one of its own names reaches, or undefined for a name that is not the
 * service's (a custom domain, or nothing). Decided by configuration alone: IP addresses in every
 * spelling, `localhost` and the API hosts reach the API; names under the site domain reach sites;
 * the site domain itself reaches nothing.
 */
export function ownNameKind(hostname: string, names: ServiceNames): HostKind | undefined {
  if (hostname.endsWith(`.${names.siteDomain}`)) return 'site';
  if (hostname === names.siteDomain) return 'none';
  if (isIpLiteral(hostname) || hostname === 'localhost') return 'api';
  if (names.apiHosts.includes(hostname)) return 'api';
  return undefined;
}

/** Whether a name is the service's own: such a name can never be a project's custom domain. */
export function isServiceName(hostname: string, names: ServiceNames): boolean {
  return ownNameKind(hostname, names) !== undefined;
}

/**
 * What a name that is not the service's own is to the projects: the docs site of one (`site`), a name
 * that is or was a project's custom domain in any state and serves no site now (`claimed`), or none
 * (`free`). See features/domains/sites/host-directory.ts.
 */
export type CustomHostKind = 'site' | 'claimed' | 'free';

/**
 * Which part of the service a parsed host reaches. The service's own names are decided by
 * configuration; any other name is a project's site while it is a verified custom domain of a project
 * on a paid plan, reaches nothing while it is or was any project's custom domain (pending, failed,
 * suspended, removed), and is the API only when no project ever claimed it and no API host is
 * configured. A name not looked up yet (`undefined`) reaches nothing. So nothing a tenant adds moves the
 * service's own pages, and no customer's name, old or new, ever shows them.
 */
export function classifyHost(
  hostname: string,
  names: ServiceNames,
  custom: (hostname: string) => CustomHostKind | undefined,
): HostKind {
  const own = ownNameKind(hostname, names);
  if (own !== undefined) return own;
  const kind = custom(hostname);
  if (kind === 'site') return 'site';
  return kind === 'free' && names.apiHosts.length === 0 ? 'api' : 'none';
}
