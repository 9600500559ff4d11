import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { bindingOf, createPasskeys, parseCredential, type RelyingParty, relyingPartyOf } from './passkeys.ts';
import { confirmPassword } from './password-confirm.ts';
import { SESSION_TTL_MS, SIGN_IN_LIMITS } from './sessions.ts';
import { urlFor } from '../shared/urls.ts';
import type { Account } from './account-repository.ts';
import { field } from '../../web/form-body.ts';
import { readCookie } from '../../web/cookies.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { sendPage } from '../shared/page.ts';
import {
  setDeviceCookie,
  setSessionCookie,
  signedInOf,
  SIGN_IN_CSRF_COOKIE,
  signInCsrfToken,
} from './session-cookie.ts';
import { retryText, safeNext } from './sign-in-pages.ts';
import { clearTwoFactorCookie, twoFactorCookie } from './two-factor-cookie.ts';
import { signInView } from './sign-in-view.ts';
import { twoFactorSignInView } from './two-factor-view.ts';
import { lockedOutText } from './two-factor-pages.ts';
import { lockedOutBy } from './second-factor.ts';

const ACCOUNT = urlFor('accountPage');
const REFUSED = 'That passkey did not sign you in: use your password, or try again.';
const EXPIRED = 'Sign in with your email and password first: a sign-in waits 5 minutes for its second step.';

/**
 * Passkeys in the dashboard: adding and removing them on the account page, "Sign in with a passkey"
 * (alone, under the sign-in form's rules: the address's sign-in budget and its failures' waits), and a
 * passkey instead of the code after the password (under the account's code throttle). The options
 * are JSON answers to form posts (with their CSRF token); the credential comes back in a form.
 */
export function passkeyPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, sessions, flashes, clock, identity, limiter } = context;
  const { throttle } = sessions;
  const passkeys = createPasskeys({ accounts: storage.accounts, clock, identity });
  /** The dashboard's configured origin (the request's own where none is configured): the RP ID's host. */
  const rpOf = (request: FastifyRequest): RelyingParty => relyingPartyOf(context.linkOrigin(request));
  const sessionBinding = (request: FastifyRequest) =>
    bindingOf('session', signedInOf(request).session.idDigest);
  const signInBinding = (request: FastifyRequest) =>
    bindingOf('sign-in', readCookie(request.headers.cookie, SIGN_IN_CSRF_COOKIE) ?? '');
  const json = (reply: FastifyReply, status: number, body: unknown) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('application/json')
      .send(JSON.stringify(body));

  /** The session for an account a passkey proved, as a password and its code would. */
  const signInAs = async (request: FastifyRequest, reply: FastifyReply, account: Account, next: string) => {
    const started = await sessions.start(account);
    request.log.info(
      { event: 'sign_in.succeeded', accountId: account.id, address: request.ip, method: 'passkey' },
      'sign-in succeeded',
    );
    await context.audit(request, 'sign_in', null, { account });
    setSessionCookie(request, reply, started.token, SESSION_TTL_MS);
    setDeviceCookie(request, reply, started.deviceCookie);
    return reply.redirect(next, 303);
  };

  const signInPage = (request: FastifyRequest, reply: FastifyReply, problem: string, status: number) => {
    const main = signInView({ csrfToken: signInCsrfToken(request, reply), problem });
    return sendPage(request, reply, { title: 'Sign in', main, status });
  };

  /** The wait before a passkey-first sign-in from this address, in seconds (0: none). */
  const addressWait = async (address: string): Promise<number> => {
    const budget = await limiter.check({
      bucket: `sign-in:address:${address}`,
      ...SIGN_IN_LIMITS.perAddress,
    });
    if (!budget.allowed) return budget.retryAfterSeconds ?? 1;
    return throttle.waitSeconds('address', address);
  };

  return {
    async passkeyRegistrationOptions(request, reply) {
      const { account } = signedInOf(request);
      // Adding a passkey gives a way in without the password, so the password is asked again first.
      const confirmed = await confirmPassword(sessions, account, field(request.body, 'password'));
      if (confirmed !== 'ok') {
        if (typeof confirmed === 'number') reply.header('retry-after', String(confirmed));
        return json(reply, typeof confirmed === 'number' ? 429 : 400, {
          problem: typeof confirmed === 'number' ? retryText(confirmed) : 'Your password is not right.',
        });
      }
      return json(
        reply,
        200,
        await passkeys.registrationOptions(account, sessionBinding(request), rpOf(request)),
      );
    },
    async addPasskey(request, reply) {
      const { account } = signedInOf(request);
      const response = parseCredential<Parameters<typeof passkeys.register>[2]>(
        field(request.body, 'credential'),
      );
      const who = { kind: 'account' as const, account, address: request.ip };
      const outcome = response
        ? await passkeys.register(
            who,
            field(request.body, 'name'),
            response,
            sessionBinding(request),
            rpOf(request),
          )
        : { kind: 'refused' as const, problem: 'The browser sent no passkey: try again.' };
      await flashes.put(
        request,
        ACCOUNT,
        outcome.kind === 'added'
          ? {
              notice: `Passkey “${outcome.passkey.name}” added.`,
              ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}),
            }
          : { passkeyProblem: outcome.problem },
      );
      return context.back(reply, ACCOUNT);
    },
    async removePasskey(request, reply) {
      const { account } = signedInOf(request);
      const id = field(request.body, 'passkey');
      // The last second factor, in a project that requires one: warned first, like turning TOTP off.
      const requiring = await lockedOutBy(storage.accounts, account.id, { passkey: id });
      if (requiring.length > 0 && field(request.body, 'understood') !== 'yes') {
        await flashes.put(request, ACCOUNT, { passkeyProblem: lockedOutText(requiring) });
        return context.back(reply, ACCOUNT);
      }
      const who = { kind: 'account' as const, account, address: request.ip };
      const removed = await passkeys.remove(who, id);
      await flashes.put(
        request,
        ACCOUNT,
        removed ? { notice: 'Passkey removed.' } : { passkeyProblem: 'That passkey was removed already.' },
      );
      return context.back(reply, ACCOUNT);
    },
    async passkeySignInOptions(request, reply) {
      // Asking spends nothing of the address's sign-in budget (answering does); a waiting address waits.
      const wait = await throttle.waitSeconds('address', request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return json(reply, 429, { problem: retryText(wait) });
      }
      return json(
        reply,
        200,
        await passkeys.signInOptions('sign_in', signInBinding(request), rpOf(request), null),
      );
    },
    async passkeySignIn(request, reply) {
      const wait = await addressWait(request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return signInPage(request, reply, retryText(wait), 429);
      }
      const response = parseCredential<Parameters<typeof passkeys.authenticate>[1]>(
        field(request.body, 'credential'),
      );
      const outcome = response
        ? await passkeys.authenticate('sign_in', response, signInBinding(request), rpOf(request))
        : { kind: 'refused' as const };
      const account = outcome.kind === 'ok' ? await storage.accounts.byId(outcome.accountId) : undefined;
      if (!account) {
        await throttle.failed('address', request.ip);
        request.log.warn(
          { event: 'sign_in.failed', address: request.ip, method: 'passkey' },
          'passkey refused',
        );
        return signInPage(request, reply, REFUSED, 400);
      }
      return signInAs(
        request,
        reply,
        account,
        safeNext(field(request.body, 'next') || urlFor('projectsPage')),
      );
    },
    async twoFactorPasskeyOptions(request, reply) {
      const token = twoFactorCookie(request);
      const challenge = await sessions.twoFactor.challenged(token);
      if (!challenge) return json(reply, 400, { problem: EXPIRED });
      const rp = rpOf(request);
      return json(
        reply,
        200,
        await passkeys.signInOptions(
          'second_factor',
          bindingOf('two-factor', token),
          rp,
          challenge.accountId,
        ),
      );
    },
    async twoFactorPasskeySignIn(request, reply) {
      const token = twoFactorCookie(request);
      const challenge = await sessions.twoFactor.challenged(token);
      if (!challenge) return signInPage(request, reply, EXPIRED, 400);
      const { accountId } = challenge;
      const codeStep = async (problem: string, status: number) => {
        const totp = await sessions.twoFactor.enabled(accountId);
        const csrfToken = signInCsrfToken(request, reply);
        return sendPage(request, reply, {
          title: totp ? 'Enter your code' : 'Use your passkey',
          main: twoFactorSignInView({ csrfToken, problem, passkeys: true, totp }),
          status,
        });
      };
      const wait = await throttle.waitSeconds('twoFactor', accountId);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return codeStep(retryText(wait), 429);
      }
      const response = parseCredential<Parameters<typeof passkeys.authenticate>[1]>(
        field(request.body, 'credential'),
      );
      const outcome = response
        ? await passkeys.authenticate(
            'second_factor',
            response,
            bindingOf('two-factor', token),
            rpOf(request),
          )
        : { kind: 'refused' as const };
      if (outcome.kind !== 'ok' || outcome.accountId !== accountId) {
        await throttle.failed('twoFactor', accountId);
        request.log.warn(
          { event: 'sign_in.code_failed', accountId, address: request.ip, reason: 'passkey' },
          'passkey refused',
        );
        return codeStep(REFUSED, 400);
      }
      await throttle.succeeded('twoFactor', accountId);
      const account = await storage.accounts.byId(accountId);
      if (!(await sessions.twoFactor.completeChallenge(token)) || !account) {
        return signInPage(request, reply, EXPIRED, 400);
      }
      clearTwoFactorCookie(request, reply);
      return signInAs(request, reply, account, challenge.next);
    },
  };
}
