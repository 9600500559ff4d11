import type { FastifyRequest } from 'fastify';
import type { Actor } from '../shared/actor.ts';
import { signedInOf } from './session-cookie.ts';

/** The signed-in account as the application services' actor, from the request's address. */
export function dashboardActor(request: FastifyRequest): Actor {
  const { account } = signedInOf(request);
  return { kind: 'account', accountId: account.id, email: account.email, address: request.ip };
}
