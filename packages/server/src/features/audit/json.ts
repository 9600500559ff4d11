import type { StoredAuditEvent } from './audit-records.ts';
import { iso } from '../shared/iso.ts';

/** An event of the audit trail as the management API (and `petstore audit --json`) shows it. */
export const auditEventJson = (event: StoredAuditEvent) => ({
  id: event.id,
  at: iso(event.at),
  actor: event.actor,
  action: event.action,
  target: event.target,
  address: event.address,
  via: event.via ?? null,
});
