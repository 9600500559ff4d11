import { timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { KeyRepository } from '../storage/repository.ts';
import type { ApiKeyRecord } from '../storage/records.ts';
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
  /** Keys (by presented secret) cached at most: the least recently used is dropped first. */
  maxEntries?: number;
}

/**
 * Presented secrets cached at most: 100,000 (a few tens of MB when full). Past that the least recently
 * used one is dropped alone: 50k keys in rotation stay cached, and no request pays for a cache emptied.
 */
export const MAX_CACHED_KEYS = 100_000;

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
  const cache = new LRUCache<string, CacheEntry>({ max: options.maxEntries ?? MAX_CACHED_KEYS });
  let token = changeToken();

  const fresh = (entry: CacheEntry | undefined, now: number): entry is CacheEntry => {
    if (!entry) return false;
    return token !== undefined || now - entry.loadedAt < ttlMs;
  };

  /** Cached by the presented token, so a hit costs a Map lookup rather than a SHA-256. */
  const lookup = async (secret: string, now: number): Promise<ApiKeyRecord | undefined> => {
    const current = changeToken();
    if (current !== token) {
      cache.clear();
      token = current;
    }
    const cached = cache.get(secret);
    if (fresh(cached, now)) return cached.record;
    const digest = digestKey(secret);
    const found = await keys.findKeyByDigest(digest);
    // The lookup is by digest; comparing digests again in constant time keeps the check explicit.
    const record =
      found && timingSafeEqual(Buffer.from(found.digest, 'hex'), Buffer.from(digest, 'hex'))
        ? found
        : undefined;
    cache.set(secret, { record, loadedAt: now });
    return record;
  };

  return {
    async authenticate(header) {
      const secret = bearerToken(header);
      if (secret === undefined || keyEnvironment(secret) !== environment) return undefined;
      const now = clock.now();
      const record = await lookup(secret, now);
      if (!record) return undefined;
      if (record.revokedAt !== null && record.revokedAt <= now) return undefined;
      if (record.expiresAt !== null && record.expiresAt <= now) return undefined;
      return record;
    },
    invalidate() {
      cache.clear();
    },
  };
}
