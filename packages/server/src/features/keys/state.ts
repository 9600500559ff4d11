import type { ApiKeyRecord } from '../../storage/records.ts';

/** A key's states, in every door's words: the API and JSON, the command line's tables, the dashboard. */
export const KEY_STATES = ['active', 'rolling', 'expired', 'revoked', 'banned'] as const;
export type KeyState = (typeof KEY_STATES)[number];

/** A key's state now, and when it ends: a rolling key's expiry, a banned key's ban; null otherwise. */
export interface KeyStatus {
  state: KeyState;
  until: number | null;
}

/**
 * The one reading of a key's record at `now`, in this order: revoked, expired, banned (a ban outranks a
 * roll: the key is refused until then), rolling (it still works, until its overlap ends), active.
 */
export function keyStatus(
  key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt' | 'bannedUntil' | 'rolledAt'>,
  now: number,
): KeyStatus {
  if (key.revokedAt !== null) return { state: 'revoked', until: null };
  if (key.expiresAt !== null && key.expiresAt <= now) return { state: 'expired', until: null };
  if (key.bannedUntil !== null && key.bannedUntil > now) return { state: 'banned', until: key.bannedUntil };
  if (key.rolledAt) return { state: 'rolling', until: key.expiresAt };
  return { state: 'active', until: null };
}

/** The state as a table or a page says it: `active`, `rolling until 2026-11-30 12:00 UTC`, … */
export function keyStatusText(status: KeyStatus, instant: (at: number) => string): string {
  return status.until === null ? status.state : `${status.state} until ${instant(status.until)}`;
}
