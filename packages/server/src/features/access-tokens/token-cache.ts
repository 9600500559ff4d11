import { boundedLru } from '../../cache/bounded-lru.ts';
import { type ChangeBatch, type ChangeFeed, feedFollower } from '../../changes/feed.ts';
import type { Clock } from '../../time/clock.ts';
import type { AccessToken } from './repository.ts';

/** A token found by its secret, with its account's email (the audit records' actor). */
export interface FoundToken {
  token: AccessToken;
  email: string;
}

/** Secrets cached at most; past that the least recently used one is dropped alone. */
export const MAX_CACHED_TOKENS = 10_000;
/**
 * How long an entry is trusted while the change feed is followed: a safety net, not the mechanism
 * (a change of the account's tokens drops them at once). While the feed cannot be read, and for
 * secrets that name no token, UNFOLLOWED_TTL_MS.
 */
const FOLLOWED_TTL_MS = 10 * 60_000;
const UNFOLLOWED_TTL_MS = 1_000;

interface Entry {
  found: FoundToken | undefined;
  loadedAt: number;
}

export interface TokenCacheDeps {
  feed: Pick<
    ChangeFeed,
    'catchUp' | 'behind' | 'applyNotified' | 'epoch' | 'started' | 'problem' | 'subscribe'
  >;
  /** Moves whenever this process may have committed a change (see feedFollower). */
  writeMark: () => number | undefined;
  clock: Clock;
  load(secret: string): Promise<FoundToken | undefined>;
}

/**
 * Access tokens by presented secret, in a bounded LRU kept exact by the change feed, as API keys are
 * (auth/authenticator.ts): a change of an account's tokens (migration 150: revoked, expired, removed,
 * with the account) drops that account's entries on every instance; this instance's own changes, and
 * changes announced by a notification, are read before the next answer.
 */
export function createTokenCache(deps: TokenCacheDeps) {
  const { feed, clock } = deps;
  const byAccount = new Map<string, Set<string>>();
  const cache = boundedLru<string, Entry>(MAX_CACHED_TOKENS, {
    dispose({ found }, secret) {
      if (!found) return;
      const secrets = byAccount.get(found.token.accountId);
      secrets?.delete(secret);
      if (secrets?.size === 0) byAccount.delete(found.token.accountId);
    },
  });
  feed.subscribe((batch: ChangeBatch) => {
    if (batch === 'all') {
      cache.clear();
      return;
    }
    for (const change of batch) {
      if (change.accountId === null) continue;
      for (const secret of [...(byAccount.get(change.accountId) ?? [])]) cache.delete(secret);
    }
  });
  const follow = feedFollower(feed, deps.writeMark);
  const followed = () => feed.started() && feed.problem() === undefined;

  return {
    async lookup(secret: string): Promise<FoundToken | undefined> {
      const pending = follow();
      if (pending) await pending;
      const now = clock.now();
      const cached = cache.get(secret);
      if (
        cached &&
        now - cached.loadedAt < (cached.found && followed() ? FOLLOWED_TTL_MS : UNFOLLOWED_TTL_MS)
      ) {
        return cached.found;
      }
      const epoch = feed.epoch();
      const found = await deps.load(secret);
      // A change told meanwhile may be newer than what was read: answer it, cache it next time.
      if (feed.epoch() !== epoch) {
        cache.delete(secret);
        return found;
      }
      cache.set(secret, { found, loadedAt: now });
      if (found) {
        const { accountId } = found.token;
        let secrets = byAccount.get(accountId);
        if (!secrets) byAccount.set(accountId, (secrets = new Set()));
        secrets.add(secret);
      }
      return found;
    },
  };
}
