import { urlFor } from '../shared/urls.ts';
import type { RouteHandlerMethod } from 'fastify';
import { SESSION_TTL_MS } from './sessions.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { field } from '../../web/form-body.ts';
import { sendPage } from '../shared/page.ts';
import {
  clearSessionCookie,
  deviceCookie,
  sessionToken,
  setDeviceCookie,
  setSessionCookie,
  signInCsrfToken,
} from './session-cookie.ts';
import { logSignIn } from './sign-in-log.ts';
import { setTwoFactorCookie } from './two-factor-cookie.ts';
import { signInView } from './sign-in-view.ts';

/** Only paths inside the dashboard, without dot segments or empty ones: never an open redirect. */
export function safeNext(next: string): string {
  return /^\/dashboard(\/[A-Za-z0-9_-][A-Za-z0-9._~-]*)*$/.test(next) ? next : urlFor('projectsPage');
}

export const retryText = (seconds: number): string =>
  `Too many sign-in attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;

/** Sign-in and sign-out. */
export function signInPages({ sessions, audit }: DashboardContext): Record<string, RouteHandlerMethod> {
  return {
    async signInPage(request, reply) {
      if (sessionToken(request) && (await sessions.current(sessionToken(request)!)))
        return reply.redirect(urlFor('projectsPage'), 303);
      const {
        next = '',
        signedOut,
        reset,
      } = request.query as {
        next?: string;
        signedOut?: string;
        reset?: string;
      };
      const main = signInView({
        csrfToken: signInCsrfToken(request, reply),
        next: next && safeNext(next),
        signedOut: signedOut !== undefined,
        reset: reset !== undefined,
      });
      return sendPage(request, reply, { title: 'Sign in', main });
    },
    // The one form answered with a page rather than a redirect when refused: its status (400, or 429
    // with Retry-After) is the answer, and reloading it sends nothing that creates anything.
    async signIn(request, reply) {
      const email = field(request.body, 'email');
      const next = safeNext(field(request.body, 'next') || urlFor('projectsPage'));
      const outcome = await sessions.signIn(email, field(request.body, 'password'), {
        clientAddress: request.ip,
        deviceCookie: deviceCookie(request),
      });
      logSignIn(request, email, outcome);
      if (outcome.kind === 'signed_in') {
        await audit(request, 'sign_in', null, { account: outcome.account });
        setSessionCookie(request, reply, outcome.token, SESSION_TTL_MS);
        setDeviceCookie(request, reply, outcome.deviceCookie);
        return reply.redirect(next, 303);
      }
      if (outcome.kind === 'two_factor') {
        setTwoFactorCookie(request, reply, await sessions.twoFactor.challenge(outcome.account.id, next));
        return reply.redirect(urlFor('twoFactorSignInPage'), 303);
      }
      const throttled = outcome.kind === 'throttled';
      if (throttled) reply.header('retry-after', String(outcome.retryAfterSeconds));
      const problem = throttled
        ? retryText(outcome.retryAfterSeconds)
        : 'That email and password do not match an account.';
      const main = signInView({ csrfToken: signInCsrfToken(request, reply), email, next, problem });
      // 400, not 401: a 401 would have to name an HTTP authentication scheme, and this is a form.
      return sendPage(request, reply, { title: 'Sign in', main, status: throttled ? 429 : 400 });
    },
    async signOut(request, reply) {
      await sessions.signOut(sessionToken(request)!);
      clearSessionCookie(request, reply);
      return reply.redirect(`${urlFor('signInPage')}?signedOut`, 303);
    },
  };
}
