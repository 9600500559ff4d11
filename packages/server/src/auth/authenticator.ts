import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, KeyRepository } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import { bearerToken, digestKey, type KeyEnvironment, keyEnvironment } from './keys.ts';

export interface AuthenticatorOptions {
  keys: Pick<KeyRepository, 'findKeyByDigest'>;
  clock: Clock;
  /** Keys of the other environment are refused (a test key never works in production). */
  environment: KeyEnvironment;
  /**
   * Returns a token that changes whenever the key table may have changed elsewhere; undefined means
   * "no such signal", and records are then cached for `ttlMs` only.
   */
  changeToken: () => number | undefined;
  ttlMs?: number;
  maxEntries?: number;
}

interface CacheEntry {
  record: ApiKeyRecord | undefined;
  loadedAt: number;
}

export interface Authenticator {
  /** The active key record for an Authorization header, or undefined: one answer for every failure. */
  authenticate(header: string | undefined): Promise<ApiKeyRecord | undefined>;
  /** Drops cached records after this process changed a key (a ban, for instance). */
  invalidate(): void;
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { keys, clock, environment, changeToken } = options;
  const ttlMs = options.ttlMs ?? 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, CacheEntry>();
  let token = changeToken();

  const fresh = (entry: CacheEntry | undefined, now: number): entry is CacheEntry => {
    if (!entry) return false;
    return token !== undefined || now - entry.loadedAt < ttlMs;
  };

  const lookup = async (digest: string, now: number): Promise<ApiKeyRecord | undefined> => {
    const current = changeToken();
    if (current !== token) {
      cache.clear();
      token = current;
    }
    const cached = cache.get(digest);
    if (fresh(cached, now)) return cached.record;
    const record = await keys.findKeyByDigest(digest);
    if (cache.size >= maxEntries) cache.clear();
    cache.set(digest, { record, loadedAt: now });
    return record;
  };

  return {
    async authenticate(header) {
      const secret = bearerToken(header);
      if (secret === undefined || keyEnvironment(secret) !== environment) return undefined;
      const digest = digestKey(secret);
      const now = clock.now();
      const record = await lookup(digest, now);
      if (!record) return undefined;
      if (!timingSafeEqual(Buffer.from(record.digest, 'hex'), Buffer.from(digest, 'hex'))) return undefined;
      if (record.revokedAt !== null && record.revokedAt <= now) return undefined;
      if (record.expiresAt !== null && record.expiresAt <= now) return undefined;
      return record;
    },
    invalidate() {
      cache.clear();
    },
  };
}
