import { urlFor } from '../shared/urls.ts';
import type { RouteHandlerMethod } from 'fastify';
import { changePassword } from './password-change.ts';
import { keptTokens } from '../access-tokens/revoke-choice.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { field } from '../../web/form-body.ts';
import { clearSessionCookie, setDeviceCookie, signedInOf } from './session-cookie.ts';
import { logPasswordChange } from './sign-in-log.ts';
import { retryText } from './sign-in-pages.ts';
import { accountView } from './account-view.ts';
import { passkeySection } from './passkeys-view.ts';
import { lockedOutBy } from './second-factor.ts';
import { twoFactorSection } from './two-factor-view.ts';

const ACCOUNT = urlFor('accountPage');

/** What a change revoked, for its notice: nothing when it revoked no token. */
export const revokedText = (count: number): string =>
  count === 0 ? '' : ` ${count} access token${count === 1 ? ' was' : 's were'} revoked.`;

/** The signed-in account's own page: change the password, sign out everywhere. */
export function accountPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, sessions, clock, flashes, identity } = context;
  return {
    async accountPage(request, reply) {
      const { account, csrfToken } = context.signedIn(request);
      const flash = await flashes.take(request, ACCOUNT);
      const passkeys = await storage.accounts.passkeys(account.id);
      const totp = await sessions.twoFactor.enabled(account.id);
      const main = accountView({
        account,
        csrfToken,
        tokens: await context.accessTokens.active(account.id),
        sessions: await storage.accounts.countSessions(account.id, clock.now()),
        flash,
        twoFactor: twoFactorSection({
          enabled: totp,
          passkeyOnly: !totp && passkeys.length > 0,
          recoveryCodesLeft: await sessions.twoFactor.recoveryCodesLeft(account.id),
          csrfToken,
          flash,
          requiring: await lockedOutBy(storage.accounts, account.id, { totp: true }),
        }),
        passkeys: passkeySection({
          passkeys,
          csrfToken,
          flash,
          // Only the last passkey can be the last second factor (TOTP off): its form warns.
          requiring:
            passkeys.length === 1
              ? await lockedOutBy(storage.accounts, account.id, { passkey: passkeys[0]!.id })
              : [],
        }),
      });
      return context.page(request, reply, 'Your account', main);
    },
    async changePassword(request, reply) {
      const signedIn = signedInOf(request);
      const password = field(request.body, 'password');
      if (password !== field(request.body, 'repeat')) {
        await flashes.put(request, ACCOUNT, { problem: 'The two new passwords differ.' });
        return context.back(reply, ACCOUNT);
      }
      const outcome = await changePassword(
        { sessions, clock, identity },
        signedIn,
        field(request.body, 'current'),
        password,
        request.ip,
        keptTokens(request.body),
      );
      logPasswordChange(request, signedIn.account.id, outcome);
      if (outcome.kind === 'changed') {
        setDeviceCookie(request, reply, outcome.deviceCookie);
        const ended = outcome.endedSessions;
        const others = ended === 0 ? '' : ` ${ended} other session${ended === 1 ? '' : 's'} ended.`;
        await flashes.put(request, ACCOUNT, {
          notice: `Your password was changed.${others}${revokedText(outcome.revoked.length)}`,
        });
      } else {
        const problem =
          outcome.kind === 'wrong_password'
            ? 'Your current password is not right.'
            : outcome.kind === 'throttled'
              ? retryText(outcome.retryAfterSeconds)
              : `${outcome.problem[0]!.toUpperCase()}${outcome.problem.slice(1)}.`;
        await flashes.put(request, ACCOUNT, { problem });
      }
      return context.back(reply, ACCOUNT);
    },
    async signOutEverywhere(request, reply) {
      const { account } = signedInOf(request);
      const who = { kind: 'account' as const, account, address: request.ip };
      const { value: ended, revoked } = await identity.signOutEverywhere(who, account.id);
      request.log.info(
        {
          event: 'sessions.ended',
          accountId: account.id,
          address: request.ip,
          endedSessions: ended,
          revokedTokens: revoked.length,
        },
        'signed out everywhere',
      );
      clearSessionCookie(request, reply);
      return reply.redirect(`${urlFor('signInPage')}?signedOut`, 303);
    },
  };
}
