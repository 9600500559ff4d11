import { limitsFor } from '../../ratelimit/plans.ts';
import type { ApiKeyRecord } from '../../storage/records.ts';
import { iso, isoOrNull } from '../shared/iso.ts';
import { keyStatus } from './state.ts';

/** A key as the management API shows it (and `petstore keys list --json`): never its secret or digest. */
export function keyJson(key: ApiKeyRecord, now: number) {
  const status = keyStatus(key, now);
  return {
    id: key.id,
    label: key.label,
    prefix: key.prefix,
    environment: key.environment,
    state: status.state,
    stateUntil: isoOrNull(status.until),
    limits: limitsFor(key),
    ownLimits: { perMinute: key.ownPerMinute ?? null, perDay: key.ownPerDay ?? null },
    createdAt: iso(key.createdAt),
    expiresAt: isoOrNull(key.expiresAt),
    revokedAt: isoOrNull(key.revokedAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
    rolledAt: isoOrNull(key.rolledAt),
    rolledTo: key.rolledTo ?? null,
    bannedUntil: key.bannedUntil !== null && key.bannedUntil > now ? iso(key.bannedUntil) : null,
  };
}
