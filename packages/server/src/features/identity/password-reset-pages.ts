import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import {
  pendingReset,
  type PasswordResetDeps,
  requestPasswordReset,
  RESET_TTL_MS,
  resetPassword,
} from './password-reset.ts';
import { urlFor } from '../shared/urls.ts';
import { field } from '../../web/form-body.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { sendPage } from '../shared/page.ts';
import { signInCsrfToken } from './session-cookie.ts';
import { emailDigest } from './sign-in-log.ts';
import { forgotPasswordView, invalidResetView, resetPasswordView } from './password-reset-view.ts';

const VALID_MINUTES = RESET_TTL_MS / 60_000;
const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;
const waitText = (seconds: number) =>
  `Too many reset requests. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;

/** "Forgot password?" and the page its mailed link opens. Refusals answer with the page itself. */
export function passwordResetPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const deps: PasswordResetDeps = {
    accounts: context.storage.accounts,
    storage: context.storage,
    sessions: context.sessions,
    limiter: context.limiter,
    clock: context.clock,
    outbox: context.outbox,
    identity: context.identity,
  };

  const forgot = (
    request: FastifyRequest,
    reply: FastifyReply,
    view: { email?: string; problem?: string; requested?: string },
    status = 200,
  ) =>
    sendPage(request, reply, {
      title: 'Reset your password',
      main: forgotPasswordView({
        csrfToken: signInCsrfToken(request, reply),
        validMinutes: VALID_MINUTES,
        ...view,
      }),
      status,
    });

  const resetForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    email: string,
    problem?: string,
    status = 200,
  ) =>
    sendPage(request, reply, {
      title: 'Choose a new password',
      main: resetPasswordView({ csrfToken: signInCsrfToken(request, reply), token, email, problem }),
      status,
    });

  const invalid = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(request, reply, { title: 'Reset link', main: invalidResetView(), status: 404 });

  return {
    async forgotPasswordPage(request, reply) {
      return forgot(request, reply, {});
    },
    async requestPasswordReset(request, reply) {
      const typed = field(request.body, 'email');
      const origin = context.linkOrigin(request);
      const outcome = await requestPasswordReset(
        deps,
        typed,
        request.ip,
        (token) => `${origin}${urlFor('resetPasswordPage')}?token=${token}`,
      );
      request.log.info(
        { event: `password_reset.${outcome.kind}`, emailDigest: emailDigest(typed), address: request.ip },
        'password reset asked for',
      );
      if (outcome.kind === 'invalid_email') {
        return forgot(request, reply, { email: typed, problem: `“${typed}” is not an email address.` }, 400);
      }
      if (outcome.kind === 'throttled') {
        reply.header('retry-after', String(outcome.retryAfterSeconds));
        return forgot(request, reply, { email: typed, problem: waitText(outcome.retryAfterSeconds) }, 429);
      }
      return forgot(request, reply, { requested: outcome.email });
    },
    async resetPasswordPage(request, reply) {
      const { token = '' } = request.query as { token?: string };
      const account = await pendingReset(deps, token);
      return account ? resetForm(request, reply, token, account.email) : invalid(request, reply);
    },
    async resetPassword(request, reply) {
      const token = field(request.body, 'token');
      const password = field(request.body, 'password');
      const account = await pendingReset(deps, token);
      if (!account) return invalid(request, reply);
      if (password !== field(request.body, 'repeat')) {
        return resetForm(request, reply, token, account.email, 'The two passwords differ.', 400);
      }
      const outcome = await resetPassword(deps, token, password, request.ip);
      if (outcome.kind === 'invalid_link') return invalid(request, reply);
      if (outcome.kind === 'refused') {
        return resetForm(request, reply, token, account.email, capitalised(outcome.problem), 400);
      }
      if (outcome.kind === 'throttled') {
        reply.header('retry-after', String(outcome.retryAfterSeconds));
        return resetForm(request, reply, token, account.email, waitText(outcome.retryAfterSeconds), 429);
      }
      request.log.info(
        {
          event: 'password.reset',
          accountId: outcome.account.id,
          address: request.ip,
          endedSessions: outcome.endedSessions,
          revokedTokens: outcome.revoked.length,
        },
        'password reset by a mailed link',
      );
      return reply.redirect(`${urlFor('signInPage')}?reset`, 303);
    },
  };
}
