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
 * Which part of the service a parsed host reaches. The service's own names are decided by
 * configuration; any other name is a project's site only while it is a verified custom domain of a
 * project on a paid plan (`isServedDomain`), and otherwise the API when no API host is configured,
 * else nothing. So nothing a tenant adds, pending, failed or removed, moves the service's own pages.
 */
export function classifyHost(
  hostname: string,
  names: ServiceNames,
  isServedDomain: (hostname: string) => boolean,
): HostKind {
  const own = ownNameKind(hostname, names);
  if (own !== undefined) return own;
  if (isServedDomain(hostname)) return 'site';
  return names.apiHosts.length === 0 ? 'api' : 'none';
}
