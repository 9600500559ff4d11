import type { RouteHandlerMethod } from 'fastify';
import { parseDateTime } from '../../validation/date-time.ts';
import type { Clock } from '../../time/clock.ts';
import { idempotentRequest, tokenActorOf } from '../access-tokens/check.ts';
import type { IdempotentAnswers } from '../../idempotency/sealed-answers.ts';
import { numberOf, pageQuery, sendCreated, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { keyJson } from './json.ts';
import { type CreatedKey, KEY_PAGE, type KeyService, type RolledKey } from './service.ts';

/**
 * The management API's key operations (openapi/manage.yaml, tag Keys), on the keys service; their query
 * and body come checked by the contract (manage/area.ts).
 */
export function keyRoutes(
  keys: KeyService,
  clock: Clock,
  answers: IdempotentAnswers,
): Record<string, RouteHandlerMethod> {
  return {
    async listKeys(request, reply) {
      const { slug } = request.params as { slug: string };
      const page = pageQuery(request.query as Record<string, unknown>, KEY_PAGE.maxLimit);
      const listed = valueOrThrow(await keys.list(tokenActorOf(request), slug, page));
      const now = clock.now();
      return sendJson(reply, 200, { ...listed, data: listed.data.map((key) => keyJson(key, now)) });
    },
    async createKey(request, reply) {
      const { slug } = request.params as { slug: string };
      const input = request.body as Record<string, unknown>;
      const actor = tokenActorOf(request);
      const fields = {
        label: (input.label as string | undefined) ?? null,
        // The contract's check has run: a date-time.
        expiresAt: input.expiresAt === undefined ? null : parseDateTime(input.expiresAt as string)!,
        perMinute: numberOf(input.perMinute) ?? null,
        perDay: numberOf(input.perDay) ?? null,
      };
      const answer = await answers<CreatedKey>(
        idempotentRequest(request, 'createKey', { slug, input }),
        async (alongside) => valueOrThrow(await keys.create(actor, slug, fields, alongside)),
        (created) => JSON.stringify({ key: keyJson(created.key, clock.now()), secret: created.secret }),
      );
      return sendCreated(reply, answer);
    },
    async getKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const key = valueOrThrow(await keys.get(tokenActorOf(request), slug, keyId));
      return sendJson(reply, 200, keyJson(key, clock.now()));
    },
    async updateKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const body = request.body as Record<string, unknown>;
      // The contract's check has run: each field absent, null, or of its type.
      const limit = (name: string) => (body[name] === undefined ? undefined : (numberOf(body[name]) ?? null));
      const change = {
        ...(body.label === undefined ? {} : { label: body.label as string | null }),
        ...(body.perMinute === undefined ? {} : { perMinute: limit('perMinute') }),
        ...(body.perDay === undefined ? {} : { perDay: limit('perDay') }),
      };
      const key = valueOrThrow(await keys.update(tokenActorOf(request), slug, keyId, change));
      return sendJson(reply, 200, keyJson(key, clock.now()));
    },
    async unbanKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const key = valueOrThrow(await keys.unban(tokenActorOf(request), slug, keyId));
      return sendJson(reply, 200, keyJson(key, clock.now()));
    },
    async revokeKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const key = valueOrThrow(await keys.revoke(tokenActorOf(request), slug, keyId));
      return sendJson(reply, 200, keyJson(key, clock.now()));
    },
    async rollKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const input = request.body as Record<string, unknown>;
      const overlap = numberOf(input.overlapSeconds);
      const actor = tokenActorOf(request);
      const answer = await answers<RolledKey>(
        idempotentRequest(request, 'rollKey', { slug, keyId, input }),
        async (alongside) => valueOrThrow(await keys.roll(actor, slug, keyId, overlap, alongside)),
        (rolled) => {
          const now = clock.now();
          return JSON.stringify({
            key: keyJson(rolled.key, now),
            secret: rolled.secret,
            previous: keyJson(rolled.previous, now),
          });
        },
      );
      return sendCreated(reply, answer);
    },
  };
}
