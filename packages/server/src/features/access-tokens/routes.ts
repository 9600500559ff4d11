import type { RouteHandlerMethod } from 'fastify';
import type { IdempotentAnswers } from '../../idempotency/sealed-answers.ts';
import { sendCreated, sendJson } from '../shared/json.ts';
import { iso } from '../shared/iso.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { idempotentRequest, tokenActorOf } from './check.ts';
import type { AccessToken } from './repository.ts';
import type { AccessTokenService } from './service.ts';

/** A token as the management API shows it: never its secret or digest; its projects by slug. */
function accessTokenJson(token: AccessToken, slugOf: (projectId: string) => string | undefined) {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scope: token.scope,
    managesTokens: token.managesTokens,
    projects: token.projectIds.map(slugOf).filter((slug): slug is string => slug !== undefined),
    createdAt: iso(token.createdAt),
    expiresAt: iso(token.expiresAt),
    revokedAt: token.revokedAt === null ? null : iso(token.revokedAt),
    lastUsedAt: token.lastUsedAt === null ? null : iso(token.lastUsedAt),
  };
}

/**
 * The management API's access tokens (openapi/manage.yaml, tag Tokens): the account's own, listed,
 * made and revoked only through a token made to manage them.
 */
export function accessTokenRoutes(
  tokens: AccessTokenService,
  projectSlugs: (accountId: string) => Promise<Map<string, string>>,
  answers: IdempotentAnswers,
): Record<string, RouteHandlerMethod> {
  return {
    async listTokens(request, reply) {
      const actor = tokenActorOf(request);
      const listed = valueOrThrow(await tokens.listThrough(actor));
      const slugs = await projectSlugs(actor.accountId);
      return sendJson(reply, 200, {
        data: listed.map((token) => accessTokenJson(token, (id) => slugs.get(id))),
      });
    },
    async createToken(request, reply) {
      const actor = tokenActorOf(request);
      const body = request.body as {
        name: string;
        scope: string;
        projects: string[];
        expiresInDays: number | bigint;
        managesTokens?: boolean;
      };
      // Read before the create: its answer is made (and, with an Idempotency-Key, kept) in its transaction.
      const slugs = await projectSlugs(actor.accountId);
      const answer = await answers<{ token: AccessToken; secret: string }>(
        idempotentRequest(request, 'createToken', body),
        // The contract's check has run; integers arrive exact (bigint).
        async (alongside) =>
          valueOrThrow(
            await tokens.create(actor, { ...body, expiresInDays: Number(body.expiresInDays) }, alongside),
          ),
        (created) =>
          JSON.stringify({
            token: accessTokenJson(created.token, (id) => slugs.get(id)),
            secret: created.secret,
          }),
      );
      return sendCreated(reply, answer);
    },
    async revokeToken(request, reply) {
      const actor = tokenActorOf(request);
      const { id: tokenId } = request.params as { id: string };
      const revoked = valueOrThrow(await tokens.revoke(actor, tokenId));
      const slugs = await projectSlugs(actor.accountId);
      return sendJson(
        reply,
        200,
        accessTokenJson(revoked, (id) => slugs.get(id)),
      );
    },
  };
}
