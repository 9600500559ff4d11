import { timingSafeEqual } from 'node:crypto';
import { boundedLru } from '../cache/bounded-lru.ts';
import { type ChangeBatch, type ChangeFeed, feedFollower } from '../changes/feed.ts';
import type { AuthenticatedKey } from '../storage/records.ts';
import type { Clock } from '../time/clock.ts';
import { bearerToken, digestKey, type KeyEnvironment, keyEnvironment } from './keys.ts';

export interface AuthenticatorOptions {
  keys: { findByDigest(digest: string): Promise<AuthenticatedKey | undefined> };
  clock: Clock;
  /** Keys of the other environment are refused (a test key never works in production). */
  environment: KeyEnvironment;
  /**
   * The change feed (migrations 090 and 125): a key's change drops that key alone, a project's change
   * its keys. While the feed is not started or cannot be read, records are trusted for `ttlMs` only.
   */
  feed: Pick<
    ChangeFeed,
    'catchUp' | 'behind' | 'applyNotified' | 'epoch' | 'started' | 'problem' | 'subscribe'
  >;
  /**
   * A number that moves whenever something may have been committed that the feed has not been asked
   * for yet (SQLite's change token; this process's own writes on PostgreSQL): the feed is read before
   * the next answer, so the instance that revoked a key refuses it at once. A notification of a change
   * elsewhere is waited for the same way (feedFollower).
   */
  writeMark: () => number | undefined;
  ttlMs?: number;
  /** Keys (by presented secret) cached at most: the least recently used is dropped first. */
  maxEntries?: number;
}

/**
 * Presented secrets cached at most: 100,000 (a few tens of MB when full). Past that the least recently
 * used one is dropped alone: 50k keys in rotation stay cached, and no request pays for a cache emptied.
 */
export const MAX_CACHED_KEYS = 100_000;
/** How long a record followed by the change feed is trusted at most: a safety net, not the mechanism. */
export const FOLLOWED_TTL_MS = 10 * 60_000;

interface CacheEntry {
  record: AuthenticatedKey | undefined;
  loadedAt: number;
}

export interface Authenticator {
  /** The active key record for an Authorization header, or undefined: one answer for every failure. */
  authenticate(header: string | undefined): Promise<AuthenticatedKey | undefined>;
  /** Drops the cached record of one key after this process changed it (a ban, for instance). */
  forget(keyId: string): void;
}

/**
 * API keys by presented secret, cached in a bounded LRU (a hit costs a Map lookup, not a SHA-256 and a
 * query) and kept current by the change feed entry by entry: no write anywhere empties the cache.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { keys, clock, environment, feed } = options;
  const ttlMs = options.ttlMs ?? 1000;
  /** Secrets cached per key and per project, so a change drops exactly those. */
  const byKey = new Map<string, string>();
  const byProject = new Map<string, Set<string>>();
  const cache = boundedLru<string, CacheEntry>(options.maxEntries ?? MAX_CACHED_KEYS, {
    dispose({ record }, secret) {
      if (!record) return;
      if (byKey.get(record.id) === secret) byKey.delete(record.id);
      const secrets = record.projectId === null ? undefined : byProject.get(record.projectId);
      secrets?.delete(secret);
      if (secrets?.size === 0) byProject.delete(record.projectId!);
    },
  });
  const forget = (keyId: string) => {
    const secret = byKey.get(keyId);
    if (secret !== undefined) cache.delete(secret);
  };
  feed.subscribe((batch: ChangeBatch) => {
    if (batch === 'all') {
      cache.clear();
      return;
    }
    for (const change of batch) {
      if (change.keyId !== null) forget(change.keyId);
      // A project's own change (not one of its domains): its plan and limits are its keys'.
      else if (change.projectId !== null && change.hostname === null) {
        for (const secret of [...(byProject.get(change.projectId) ?? [])]) cache.delete(secret);
      }
    }
  });
  const follow = feedFollower(feed, options.writeMark);

  const followed = () => feed.started() && feed.problem() === undefined;
  const fresh = (entry: CacheEntry | undefined, now: number): entry is CacheEntry => {
    if (!entry) return false;
    const age = now - entry.loadedAt;
    // A key never seen may be created by another door: unknown secrets are trusted for ttlMs only.
    return age < (entry.record && followed() ? FOLLOWED_TTL_MS : ttlMs);
  };
  const remember = (secret: string, entry: CacheEntry) => {
    cache.set(secret, entry);
    const { record } = entry;
    if (!record) return;
    byKey.set(record.id, secret);
    if (record.projectId === null) return;
    let secrets = byProject.get(record.projectId);
    if (!secrets) byProject.set(record.projectId, (secrets = new Set()));
    secrets.add(secret);
  };

  /** Cached by the presented token, so a hit costs a Map lookup rather than a SHA-256. */
  const lookup = async (secret: string, now: number): Promise<AuthenticatedKey | undefined> => {
    // An unreadable feed is not waited for: records are then trusted for ttlMs only (fresh).
    const pending = follow();
    if (pending) await pending;
    const cached = cache.get(secret);
    if (fresh(cached, now)) return cached.record;
    const epoch = feed.epoch();
    const digest = digestKey(secret);
    const found = await keys.findByDigest(digest);
    // The lookup is by digest; comparing digests again in constant time keeps the check explicit.
    const record =
      found && timingSafeEqual(Buffer.from(found.digest, 'hex'), Buffer.from(digest, 'hex'))
        ? found
        : undefined;
    // A change told meanwhile may be newer than what the lookup read: answer it, cache it next time.
    if (feed.epoch() === epoch) remember(secret, { record, loadedAt: now });
    else cache.delete(secret);
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
    forget,
  };
}
