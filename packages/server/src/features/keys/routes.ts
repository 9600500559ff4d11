import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { OpenApiDocument } from '../../openapi/contract.ts';
import type { Clock } from '../../time/clock.ts';
import { bodyChecker } from '../../validation/contract-input.ts';
import { queryReader } from '../../validation/query.ts';
import { tokenActorOf } from '../access-tokens/check.ts';
import { numberOf, pageQuery, sendJson } from '../shared/json.ts';
import { valueOrThrow } from '../shared/outcome.ts';
import { keyJson } from './json.ts';
import { KEY_PAGE, type KeyService } from './service.ts';

/** An instant of a request body, checked by the contract as a string; anything Date cannot read is 400. */
function instantOf(value: unknown, param: string): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value as string);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value as string) || Number.isNaN(at)) {
    throw new ApiError('invalid_body', `${param} must be an ISO 8601 instant, e.g. 2030-01-31T00:00:00Z`, {
      param,
    });
  }
  return at;
}

/** The management API's key operations (openapi/manage.yaml, tag Keys), on the keys service. */
export function keyRoutes(
  keys: KeyService,
  contract: OpenApiDocument,
  clock: Clock,
): Record<string, RouteHandlerMethod> {
  const listQuery = queryReader('/projects/{slug}/keys', 'get', contract);
  const checkNewKey = bodyChecker('NewKey', contract);
  const checkRoll = bodyChecker('KeyRoll', contract);
  return {
    async listKeys(request, reply) {
      const { slug } = request.params as { slug: string };
      const page = pageQuery(listQuery(request.query as Record<string, string>), KEY_PAGE.maxLimit);
      const listed = valueOrThrow(await keys.list(tokenActorOf(request), slug, page));
      const now = clock.now();
      return sendJson(reply, 200, { ...listed, data: listed.data.map((key) => keyJson(key, now)) });
    },
    async createKey(request, reply) {
      const { slug } = request.params as { slug: string };
      const body = request.body ?? {};
      checkNewKey(body);
      const input = body as Record<string, unknown>;
      const created = valueOrThrow(
        await keys.create(tokenActorOf(request), slug, {
          label: (input.label as string | undefined) ?? null,
          expiresAt: instantOf(input.expiresAt, 'expiresAt') ?? null,
          perMinute: numberOf(input.perMinute) ?? null,
          perDay: numberOf(input.perDay) ?? null,
        }),
      );
      return sendJson(reply, 201, { key: keyJson(created.key, clock.now()), secret: created.secret });
    },
    async revokeKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const key = valueOrThrow(await keys.revoke(tokenActorOf(request), slug, keyId));
      return sendJson(reply, 200, keyJson(key, clock.now()));
    },
    async rollKey(request, reply) {
      const { slug, keyId } = request.params as { slug: string; keyId: string };
      const body = request.body ?? {};
      checkRoll(body);
      const overlap = numberOf((body as Record<string, unknown>).overlapSeconds);
      const rolled = valueOrThrow(await keys.roll(tokenActorOf(request), slug, keyId, overlap));
      const now = clock.now();
      return sendJson(reply, 201, {
        key: keyJson(rolled.key, now),
        secret: rolled.secret,
        previous: keyJson(rolled.previous, now),
      });
    },
  };
}
