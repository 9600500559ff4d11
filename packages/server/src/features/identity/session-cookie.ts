import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sessions } from './sessions.ts';
import { ApiError } from '../../errors.ts';
import type { Account, Session } from './account-repository.ts';
import { readCookie, serializeCookie } from '../../web/cookies.ts';
import { field } from '../../web/form-body.ts';
import { requestScheme } from '../../http/scheme.ts';
import { urlFor } from '../shared/urls.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account on a `session` route (set by the guard). */
    signedIn?: { session: Session; account: Account };
  }
}

/** The signed-in account of a `session` route: the guard has checked it before any handler runs. */
export function signedInOf(request: FastifyRequest): { session: Session; account: Account } {
  if (!request.signedIn) throw new Error('a session route ran without the guard’s session check');
  return request.signedIn;
}

export const SESSION_COOKIE = 'petstore_session';
/** Before sign-in there is no session to hold a CSRF token: the sign-in form's token is in this cookie. */
export const SIGN_IN_CSRF_COOKIE = 'petstore_sign_in';

/** The browser's device cookie (features/identity/device-cookies.ts): kept a year, sent to the dashboard only. */
export const DEVICE_COOKIE = 'petstore_device';
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The cookies' scope: the dashboard's pages and forms, under its root page. */
const DASHBOARD = urlFor('projectsPage');

const secure = (request: FastifyRequest) => request.protocol === 'https';

export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.header(
    'set-cookie',
    serializeCookie(DEVICE_COOKIE, value, {
      path: DASHBOARD,
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
      secure: secure(request),
    }),
  );
}

export const deviceCookie = (request: FastifyRequest): string | undefined =>
  readCookie(request.headers.cookie, DEVICE_COOKIE);

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeMs: number,
): void {
  reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, token, {
      path: DASHBOARD,
      maxAge: Math.floor(maxAgeMs / 1000),
      secure: secure(request),
    }),
  );
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, '', { path: DASHBOARD, maxAge: 0, secure: secure(request) }),
  );
}

export const sessionToken = (request: FastifyRequest): string | undefined =>
  readCookie(request.headers.cookie, SESSION_COOKIE);

/** The guard's step for `session` routes: the account behind the cookie, from the database, or 401. */
export async function requireSession(request: FastifyRequest, sessions: Sessions): Promise<void> {
  const token = sessionToken(request);
  const current = token === undefined ? undefined : await sessions.current(token);
  if (!current) throw new ApiError('unauthorized', 'sign in to continue');
  request.signedIn = current;
}

/** The sign-in form's CSRF token: the cookie's when it has one, else a new one set now. */
export function signInCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request.headers.cookie, SIGN_IN_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.header(
    'set-cookie',
    serializeCookie(SIGN_IN_CSRF_COOKIE, token, {
      path: DASHBOARD,
      maxAge: 3_600,
      secure: secure(request),
    }),
  );
  return token;
}

const same = (a: string, b: string) =>
  a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Refuses a state-changing form (403 forbidden) unless it carries the token of its session (or, for
 * sign-in, of its cookie), and unless the browser says it comes from this origin when it says anything.
 * SameSite=Lax cookies already keep other sites' forms from carrying the session; this is the second lock.
 */
export function checkCsrf(request: FastifyRequest): void {
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const ownOrigin = `${requestScheme(request)}://${request.host}`;
  const crossSite =
    (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') ||
    (origin !== undefined && origin !== ownOrigin);
  const expected =
    request.signedIn?.session.csrfToken ?? readCookie(request.headers.cookie, SIGN_IN_CSRF_COOKIE) ?? '';
  if (crossSite || !same(field(request.body, '_csrf'), expected)) {
    throw new ApiError(
      'forbidden',
      'this form has expired or was sent from another site: reload the page and try again',
    );
  }
}
