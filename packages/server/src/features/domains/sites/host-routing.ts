import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../../errors.ts';
import { markHostLookupFailed, normalizeHost } from '../../../http/host-kind.ts';
import { targetHostHeader } from '../../../http/request-target.ts';
import { parseHostHeader } from '../../../http/host-name.ts';
import { type CustomHostKind, ownNameKind, type ServiceNames } from '../../../http/service-names.ts';
import type { HostAnswer, HostDirectory } from './host-directory.ts';

const ANSWER = Symbol('petstore.hostAnswer');
type Prepared = IncomingMessage & { [ANSWER]?: { host: string; answer: HostAnswer } };

/** The answer the dispatch looked up for `host`, the request's, if it looked one up (the site guard reuses it). */
export function preparedAnswer(request: IncomingMessage, host: string): HostAnswer | undefined {
  const prepared = (request as Prepared)[ANSWER];
  return prepared?.host === host ? prepared.answer : undefined;
}

export interface HostRouting {
  custom(hostname: string): CustomHostKind | undefined;
  prepare(request: IncomingMessage): Promise<void> | undefined;
  /** CORS: whether a docs site is at `origin` (its host was looked up by `prepare`). */
  originAllowed(origin: string): boolean;
}

const customKindOf = (answer: HostAnswer | undefined): CustomHostKind | undefined =>
  answer === undefined
    ? undefined
    : answer.kind === 'site'
      ? 'site'
      : answer.kind === 'free'
        ? 'free'
        : 'claimed';

/** The host name of an Origin header, when it is an http(s) origin. */
function originHost(origin: string): string | undefined {
  const match = /^https?:\/\/([^/]+)$/.exec(origin);
  return match ? parseHostHeader(match[1]!)?.hostname : undefined;
}

/**
 * What the router and CORS need synchronously, from the host directory: the dispatch calls `prepare`
 * before the router, which resolves a Host that is not the service's own (from the cache once every
 * committed change is read) and an Origin's host not cached yet; requests on the service's own names
 * are routed at once, without any lookup.
 */
export function createHostRouting(deps: {
  directory: HostDirectory;
  names: ServiceNames;
  log: { warn(obj: object, msg: string): void };
}): HostRouting {
  /** A host that is not the service's own is looked up for every request (see HostDirectory.resolve). */
  const isCustom = (hostname: string) => ownNameKind(hostname, deps.names) === undefined;
  /** An Origin's host, for CORS only, when it could be a docs site and is not cached yet. */
  const originToLookUp = (hostname: string | undefined): hostname is string => {
    if (!hostname) return false;
    const own = ownNameKind(hostname, deps.names);
    return (own === undefined || own === 'site') && deps.directory.cached(hostname) === undefined;
  };
  const lookUp = async (request: Prepared, hostname: string, isHost: boolean) => {
    try {
      const answer = await deps.directory.resolve(hostname);
      if (isHost) request[ANSWER] = { host: hostname, answer };
    } catch (error) {
      deps.log.warn({ err: error, hostname }, 'a host could not be looked up');
      if (isHost) {
        markHostLookupFailed(
          request,
          new ApiError(
            'service_unavailable',
            'what this address serves could not be looked up now; try again shortly',
          ),
        );
      }
    }
  };
  return {
    custom: (hostname) => customKindOf(deps.directory.cached(hostname)),
    prepare(request) {
      const host = normalizeHost(targetHostHeader(request));
      const origin = request.headers.origin;
      const fromOrigin = typeof origin === 'string' ? originHost(origin) : undefined;
      const lookups: Promise<void>[] = [];
      if (host !== '' && isCustom(host)) lookups.push(lookUp(request, host, true));
      if (fromOrigin !== host && originToLookUp(fromOrigin)) lookups.push(lookUp(request, fromOrigin, false));
      if (lookups.length === 0) return undefined;
      return Promise.all(lookups).then(() => {});
    },
    originAllowed(origin) {
      const hostname = originHost(origin);
      return hostname !== undefined && deps.directory.cached(hostname)?.kind === 'site';
    },
  };
}
