import type { StoredRequest } from './request-log-records.ts';
import { iso } from '../shared/iso.ts';

/** A logged request as the management API (and `petstore logs --json`) shows it. */
export const requestJson = (row: StoredRequest) => ({
  id: row.id,
  at: iso(row.at),
  requestId: row.requestId,
  keyId: row.keyId,
  keyLabel: row.keyLabel,
  operation: row.operation,
  method: row.method,
  path: row.path,
  status: row.status,
  code: row.code,
  message: row.message,
  count: row.count ?? 1,
  latencyMs: row.latencyMs,
  address: row.address,
});
