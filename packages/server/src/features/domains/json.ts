import type { DomainView } from './rules.ts';
import { isoOrNull } from '../shared/iso.ts';

/** A domain as the management API (and `petstore domains --json`) shows it: the dashboard's card. */
export function domainJson(domain: DomainView) {
  return {
    hostname: domain.hostname,
    state: domain.state,
    reason: domain.reason,
    primary: domain.primary,
    apex: domain.apex,
    records: domain.records.map(({ type, name, value, ok, seen }) => ({ type, name, value, ok, seen })),
    warnings: domain.warnings,
    checkError: domain.checkError,
    checkedAt: isoOrNull(domain.checkedAt),
    verifiedAt: isoOrNull(domain.verifiedAt),
  };
}
