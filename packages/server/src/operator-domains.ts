// The custom-domain service for `petstore domains`, apart from ./operator.ts: its hostname rules load
// the public suffix list, which the other operator commands do not need.
export { createDnsResolver } from './domains/dns.ts';
export {
  createDomainService,
  type DomainRefusal,
  type DomainService,
  type DomainView,
} from './domains/domain-service.ts';
export { ERROR_STATUS } from './errors.ts';
