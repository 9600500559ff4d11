// The custom-domain service for `petstore domains`, apart from ./operator.ts: its hostname rules load
// the public suffix list, which the other operator commands do not need.
export { createDnsResolver } from './features/domains/dns.ts';
export type { DomainView } from './features/domains/rules.ts';
export { createDomainsService, DOMAIN_PAGE, type DomainsService } from './features/domains/service.ts';
export { ERROR_STATUS } from './errors.ts';
export { OPERATOR } from './features/shared/actor.ts';
export { serviceSettings, type ServiceSettings } from './features/domains/settings.ts';
export { domainClaims } from './features/domains/repository.ts';
export { decodeDomainCursor, encodeDomainCursor } from './features/domains/cursor.ts';
export { domainJson } from './features/domains/json.ts';
