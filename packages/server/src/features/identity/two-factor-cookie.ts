import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHALLENGE_TTL_MS } from './two-factor.ts';
import { urlFor } from '../shared/urls.ts';
import { readCookie, serializeCookie } from '../../web/cookies.ts';

/** A sign-in between its password and its code holds the challenge's token in this cookie. */
export const TWO_FACTOR_COOKIE = 'petstore_two_factor';

const options = (request: FastifyRequest, maxAge: number) => ({
  path: urlFor('projectsPage'),
  maxAge,
  secure: request.protocol === 'https',
});

export function setTwoFactorCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header(
    'set-cookie',
    serializeCookie(TWO_FACTOR_COOKIE, token, options(request, Math.floor(CHALLENGE_TTL_MS / 1000))),
  );
}

export function clearTwoFactorCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', serializeCookie(TWO_FACTOR_COOKIE, '', options(request, 0)));
}

export const twoFactorCookie = (request: FastifyRequest): string =>
  readCookie(request.headers.cookie, TWO_FACTOR_COOKIE) ?? '';
