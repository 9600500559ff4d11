import { bearerToken, digestKey } from '../../auth/keys.ts';
import { boundedLru } from '../../cache/bounded-lru.ts';
import type { ChangeFeed } from '../../changes/feed.ts';
import { newestChangeOf } from '../../storage/change-records.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { createTwoFactorRecords } from '../identity/two-factor-records.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, type TokenGrant } from '../shared/actor.ts';
import { createAudited } from '../shared/audited.ts';
import { done, type Outcome, Refusal, refused } from '../shared/outcome.ts';
import { labelProblem } from '../shared/text-rules.ts';
import {
  type AccessToken,
  accessTokenRecords,
  lockAccount,
  MAX_ACTIVE_TOKENS,
  type TokenScope,
} from './repository.ts';
import { createTokenCache } from './token-cache.ts';
import { generateAccessToken, isAccessToken } from './token-format.ts';

/** How long a token may live, in days: the choices the dashboard offers. */
export const TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;
/** A token's use is written at most this often per token and process. */
const TOUCH_INTERVAL_MS = 60_000;

export interface NewTokenInput {
  name: string;
  scope: string;
  /** Whether the new token may manage the account's tokens (default no). */
  managesTokens?: boolean;
  /** Slugs of the account's projects the token may act on. */
  projects: string[];
  expiresInDays: number;
}

/** An account acting through a valid token: the actor of a management API request. */
export type TokenActor = Extract<Actor, { kind: 'account' }> & { token: TokenGrant };

export interface AccessTokenDeps {
  storage: Store;
  clock: Clock;
  /**
   * The change feed: the tokens' cache follows it (a change of an account's tokens drops them), and a
   * revocation is answered once its change has come back (echo).
   */
  feed: Pick<
    ChangeFeed,
    'catchUp' | 'behind' | 'applyNotified' | 'echo' | 'epoch' | 'started' | 'problem' | 'subscribe'
  >;
}

const tokenName = (token: Pick<AccessToken, 'name' | 'prefix'>) => `“${token.name}” (${token.prefix}…)`;

const cannotManage = () =>
  refused(
    'insufficient_scope',
    'this access token may not manage access tokens: make one that may in the dashboard (Account → Access tokens)',
  );

/**
 * Access tokens: created, listed and revoked by their account in the dashboard; checked on every
 * management API request. One per app (app.ts), shared by every door, so a revocation here is seen by
 * the guard's check at once; other instances drop the token by the change feed (migration 150).
 */
export function createAccessTokenService(deps: AccessTokenDeps) {
  const { storage, clock, feed } = deps;
  const audited = createAudited(storage, clock);
  const reads = accessTokenRecords(storage.sql);
  const cache = createTokenCache({
    feed,
    writeMark: () => storage.changeToken() ?? storage.ownWrites(),
    clock,
    load: async (secret) => {
      const token = await reads.byDigest(digestKey(secret));
      const account = token && (await storage.accounts.byId(token.accountId));
      return token && account ? { token, email: account.email } : undefined;
    },
  });
  const touched = boundedLru<string, number>(10_000);

  return {
    list: (accountId: string): Promise<AccessToken[]> => reads.forAccount(accountId),
    /** The account's tokens that work now: what a password change or two-factor may keep. */
    active: (accountId: string): Promise<AccessToken[]> => reads.active(accountId, clock.now()),

    /** `alongside` writes in the same transaction (the management API's Idempotency-Key answer). */
    async create(
      actor: Extract<Actor, { kind: 'account' }>,
      input: NewTokenInput,
      alongside?: (sql: SqlExecutor, created: { token: AccessToken; secret: string }) => Promise<void>,
    ): Promise<Outcome<{ token: AccessToken; secret: string }>> {
      const grant = (actor as Partial<TokenActor>).token;
      if (grant && !grant.managesTokens) return cannotManage();
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
      if (grant) {
        // Through a token: never more than the token itself holds.
        if (grant.scope === 'read' && input.scope !== 'read') {
          return refused('insufficient_scope', 'a read token makes read tokens only', 'scope');
        }
      }
      const mine = (await storage.projects.listForAccount(actor.accountId)).filter(
        (project) => !grant || grant.projectIds.has(project.id),
      );
      const chosen = [...new Set(input.projects)];
      const projects = chosen.map((slug) => mine.find((project) => project.slug === slug));
      if (chosen.length === 0) return refused('invalid_body', 'choose at least one project', 'projects');
      if (projects.some((project) => project === undefined)) {
        return refused(
          'invalid_body',
          grant
            ? 'a token made through a token may only reach projects that token reaches'
            : 'a token may only reach projects you are a member of',
          'projects',
        );
      }
      const generated = generateAccessToken();
      const now = clock.now();
      const lifetime = input.expiresInDays * 86_400_000;
      const token: AccessToken = {
        id: generated.id,
        digest: generated.digest,
        accountId: actor.accountId,
        name,
        prefix: generated.prefix,
        scope: input.scope,
        managesTokens: input.managesTokens === true,
        projectIds: projects.map((project) => project!.id),
        createdAt: now,
        expiresAt: Math.min(now + lifetime, grant?.expiresAt ?? Infinity),
        revokedAt: null,
        lastUsedAt: null,
      };
      const slugs = projects.map((project) => project!.slug).join(', ');
      const created = await audited(actor, null, async (sql) => {
        await lockAccount(sql, storage.kind, actor.accountId);
        const records = accessTokenRecords(sql);
        if ((await records.countActive(actor.accountId, now)) >= MAX_ACTIVE_TOKENS) {
          throw new Refusal({
            code: 'conflict',
            message: `you have ${MAX_ACTIVE_TOKENS} active access tokens, the most an account may hold: revoke one first`,
          });
        }
        const required = await createTwoFactorRecords(sql).requiringTwoFactor(
          actor.accountId,
          token.projectIds,
        );
        if (required.length > 0) {
          throw new Refusal({
            code: 'two_factor_required',
            message: `${required.join(', ')} require${required.length === 1 ? 's' : ''} two-factor sign-in: turn it on for your account first`,
            param: 'projects',
          });
        }
        await records.insert(token);
        await alongside?.(sql, { token, secret: generated.secret });
        return {
          value: token,
          action: 'access_token_created',
          target: `${tokenName(token)}, ${input.scope}${token.managesTokens ? ' and tokens' : ''}, ${slugs}`,
        };
      });
      if (!created.ok) return created;
      return done({ token, secret: generated.secret });
    },

    /** The account's tokens, for the management API: only through a token that may manage them. */
    async listThrough(actor: TokenActor): Promise<Outcome<AccessToken[]>> {
      if (!actor.token.managesTokens) return cannotManage();
      return done(await reads.forAccount(actor.accountId));
    },

    /** The token stops working at once here, and on every other instance from its next request. */
    async revoke(actor: Extract<Actor, { kind: 'account' }>, id: string): Promise<Outcome<AccessToken>> {
      const grant = (actor as Partial<TokenActor>).token;
      if (grant && !grant.managesTokens) return cannotManage();
      const token = (await reads.forAccount(actor.accountId)).find((candidate) => candidate.id === id);
      const now = clock.now();
      const revoked = await audited(actor, null, async (sql) => {
        await lockAccount(sql, storage.kind, actor.accountId);
        if (!token || !(await accessTokenRecords(sql).revoke(actor.accountId, id, now))) {
          throw new Refusal({ code: 'not_found', message: `you have no active access token ${id}` });
        }
        const seq = await newestChangeOf(sql, { accountId: actor.accountId });
        return { value: seq, action: 'access_token_revoked', target: tokenName(token) };
      });
      if (!revoked.ok) return revoked;
      if (revoked.value !== undefined) await feed.echo(revoked.value);
      return done({ ...token!, revokedAt: now });
    },

    /** The actor of a request's `Authorization: Bearer ps_at_…`, or undefined for any invalid token. */
    /**
     * The account acting through the bearer token; `{ refused }` for a token that exists but no longer
     * works (its holder is told why, as Stripe tells of an expired key); undefined for anything else.
     */
    async authenticate(
      header: string | undefined,
      address: string | null,
    ): Promise<TokenActor | { refused: 'expired' | 'revoked'; at: number } | undefined> {
      const secret = bearerToken(header);
      if (secret === undefined || !isAccessToken(secret)) return undefined;
      const now = clock.now();
      const found = await cache.lookup(secret);
      if (!found) return undefined;
      const { token, email } = found;
      if (token.revokedAt !== null) return { refused: 'revoked', at: token.revokedAt };
      if (token.expiresAt <= now) return { refused: 'expired', at: token.expiresAt };
      if (now - (touched.get(token.id) ?? -Infinity) >= TOUCH_INTERVAL_MS) {
        touched.set(token.id, now);
        await reads.touch(token.id, now);
      }
      return {
        kind: 'account',
        accountId: token.accountId,
        email,
        address,
        token: {
          tokenId: token.id,
          scope: token.scope as TokenScope,
          managesTokens: token.managesTokens,
          expiresAt: token.expiresAt,
          projectIds: new Set(token.projectIds),
        },
      };
    },
  };
}

export type AccessTokenService = ReturnType<typeof createAccessTokenService>;
