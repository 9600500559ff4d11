import { iso } from '../shared/iso.ts';
import type { VisibleAuditEvent } from './service.ts';

/**
 * An event of the audit trail as the management API (and `petstore audit --json`) shows it; without
 * `address` where the reader may not see it (not an owner).
 */
export const auditEventJson = (event: VisibleAuditEvent) => ({
  id: event.id,
  at: iso(event.at),
  actor: event.actor,
  action: event.action,
  target: event.target,
  ...(event.address === undefined ? {} : { address: event.address }),
  via: event.via ?? null,
});
