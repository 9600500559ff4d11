import { boundedLru } from '../../cache/bounded-lru.ts';
import { bearerToken, digestKey } from '../../auth/keys.ts';
import type { Storage } from '../../storage/repository.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, type TokenGrant } from '../shared/actor.ts';
import { createAudited } from '../shared/audited.ts';
import { done, type Outcome, Refusal, refused } from '../shared/outcome.ts';
import { labelProblem } from '../shared/text-rules.ts';
import { type AccessToken, accessTokenRecords, type TokenScope } from './repository.ts';
import { generateAccessToken, isAccessToken } from './token-format.ts';

/** How long a token may live, in days: the choices the dashboard offers. */
export const TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;
/** A token's use is written at most this often per token and process. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * Valid tokens are kept in memory, by secret, until the database may have changed: on SQLite until
 * its change token moves (any commit elsewhere, or a transaction here: exact), elsewhere for at most
 * CACHE_TTL_MS (a revocation on another instance takes effect within it). At most CACHE_MAX_ENTRIES, the
 * least recently used dropped first, alone (as are tokens' last writes): a full cache never empties.
 */
const CACHE_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 10_000;

export interface NewTokenInput {
  name: string;
  scope: string;
  /** Slugs of the account's projects the token may act on. */
  projects: string[];
  expiresInDays: number;
}

/** An account acting through a valid token: the actor of a management API request. */
export type TokenActor = Extract<Actor, { kind: 'account' }> & { token: TokenGrant };

const tokenName = (token: Pick<AccessToken, 'name' | 'prefix'>) => `“${token.name}” (${token.prefix}…)`;

/** Access tokens: created, listed and revoked by their account in the dashboard; checked per request. */
export function createAccessTokenService(deps: { storage: Storage; clock: Clock }) {
  const { storage, clock } = deps;
  const audited = createAudited(storage, clock);
  const reads = accessTokenRecords(storage.sql);
  const touched = boundedLru<string, number>(CACHE_MAX_ENTRIES);
  const cache = boundedLru<string, { token: AccessToken; email: string; loadedAt: number }>(
    CACHE_MAX_ENTRIES,
  );
  let seen = storage.changeToken();

  /** The token of a secret and its account's email, from the cache when it is still exact. */
  const lookup = async (secret: string, now: number) => {
    const current = storage.changeToken();
    if (current !== seen) {
      cache.clear();
      seen = current;
    }
    const hit = cache.get(secret);
    if (hit && (current !== undefined || now - hit.loadedAt < CACHE_TTL_MS)) return hit;
    const token = await reads.byDigest(digestKey(secret));
    const account = token && (await storage.accounts.byId(token.accountId));
    if (!token || !account) return undefined;
    const entry = { token, email: account.email, loadedAt: now };
    cache.set(secret, entry);
    return entry;
  };

  return {
    list: (accountId: string): Promise<AccessToken[]> => reads.forAccount(accountId),

    async create(
      actor: Extract<Actor, { kind: 'account' }>,
      input: NewTokenInput,
    ): Promise<Outcome<{ token: AccessToken; secret: string }>> {
      const name = input.name.trim();
      const problem = name === '' ? 'the name is required' : labelProblem(name, 'name');
      if (problem) return refused('invalid_body', problem, 'name');
      if (input.scope !== 'read' && input.scope !== 'write') {
        return refused('invalid_body', 'the scope must be read or write', 'scope');
      }
      if (!(TOKEN_LIFETIMES_DAYS as readonly number[]).includes(input.expiresInDays)) {
        return refused(
          'invalid_body',
          `a token expires in ${TOKEN_LIFETIMES_DAYS.join(', ')} days`,
          'expires',
        );
      }
      const mine = await storage.projects.listForAccount(actor.accountId);
      const chosen = [...new Set(input.projects)];
      const projects = chosen.map((slug) => mine.find((project) => project.slug === slug));
      if (chosen.length === 0) return refused('invalid_body', 'choose at least one project', 'projects');
      if (projects.some((project) => project === undefined)) {
        return refused('invalid_body', 'a token may only reach projects you are a member of', 'projects');
      }
      const generated = generateAccessToken();
      const now = clock.now();
      const token: AccessToken = {
        id: generated.id,
        digest: generated.digest,
        accountId: actor.accountId,
        name,
        prefix: generated.prefix,
        scope: input.scope,
        projectIds: projects.map((project) => project!.id),
        createdAt: now,
        expiresAt: now + input.expiresInDays * 86_400_000,
        revokedAt: null,
        lastUsedAt: null,
      };
      const slugs = projects.map((project) => project!.slug).join(', ');
      const created = await audited(actor, null, async (sql) => {
        await accessTokenRecords(sql).insert(token);
        return {
          value: token,
          action: 'access_token_created',
          target: `${tokenName(token)}, ${input.scope}, ${slugs}`,
        };
      });
      if (!created.ok) return created;
      return done({ token, secret: generated.secret });
    },

    async revoke(actor: Extract<Actor, { kind: 'account' }>, id: string): Promise<Outcome<AccessToken>> {
      const token = (await reads.forAccount(actor.accountId)).find((candidate) => candidate.id === id);
      const now = clock.now();
      const revoked = await audited(actor, null, async (sql) => {
        if (!token || !(await accessTokenRecords(sql).revoke(actor.accountId, id, now))) {
          throw new Refusal({ code: 'not_found', message: `you have no active access token ${id}` });
        }
        return { value: true, action: 'access_token_revoked', target: tokenName(token) };
      });
      if (!revoked.ok) return revoked;
      cache.clear();
      return done({ ...token!, revokedAt: now });
    },

    /** The actor of a request's `Authorization: Bearer ps_at_…`, or undefined for any invalid token. */
    async authenticate(header: string | undefined, address: string | null): Promise<TokenActor | undefined> {
      const secret = bearerToken(header);
      if (secret === undefined || !isAccessToken(secret)) return undefined;
      const now = clock.now();
      const found = await lookup(secret, now);
      if (!found) return undefined;
      const { token, email } = found;
      if (token.revokedAt !== null || token.expiresAt <= now) return undefined;
      if (now - (touched.get(token.id) ?? -Infinity) >= TOUCH_INTERVAL_MS) {
        touched.set(token.id, now);
        await reads.touch(token.id, now);
      }
      return {
        kind: 'account',
        accountId: token.accountId,
        email,
        address,
        token: { tokenId: token.id, scope: token.scope as TokenScope, projectIds: new Set(token.projectIds) },
      };
    },
  };
}

export type AccessTokenService = ReturnType<typeof createAccessTokenService>;
