import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { SESSION_TTL_MS } from './sessions.ts';
import type { CodeOutcome } from './two-factor.ts';
import { lockedOutBy } from './second-factor.ts';
import { urlFor } from '../shared/urls.ts';
import { field } from '../../web/form-body.ts';
import { Html } from '../../web/html.ts';
import { dashboardActor } from './page-actor.ts';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { sendPage } from '../shared/page.ts';
import { setDeviceCookie, setSessionCookie, signedInOf, signInCsrfToken } from './session-cookie.ts';
import { retryText } from './sign-in-pages.ts';
import { confirmPassword } from './password-confirm.ts';
import { revokedText } from './account-pages.ts';
import { keptTokens } from '../access-tokens/revoke-choice.ts';
import { clearTwoFactorCookie, twoFactorCookie } from './two-factor-cookie.ts';
import { signInView } from './sign-in-view.ts';
import { twoFactorEnrolView, twoFactorSignInView } from './two-factor-view.ts';

const ACCOUNT = urlFor('accountPage');
const RESTART = 'Sign in with your email and password first: a sign-in waits 5 minutes for its code.';
const REUSED_CODE =
  'That code was used already: type the next one your app shows (a new one every 30 seconds).';
const WRONG_CODE = 'That code is not right: type the code your app shows now, or a recovery code.';
const WRONG_RECOVERY_CODE =
  'That recovery code is not right, or was used already: use your passkey, or another code.';

/** What turning two-factor off does to a member of projects that require it (their names). */
export const lockedOutText = (projects: readonly { name: string }[]): string =>
  `${projects.map((project) => project.name).join(', ')} ${projects.length === 1 ? 'requires' : 'require'} ` +
  'two-factor sign-in: with it off, you cannot reach ' +
  `${projects.length === 1 ? 'it' : 'them'} until you set it up again. Tick the box to confirm.`;

/** Why a code typed on the account page was refused. */
const codeProblem = (outcome: Exclude<CodeOutcome, { kind: 'ok' }>): string =>
  outcome.kind === 'throttled'
    ? retryText(outcome.retryAfterSeconds)
    : outcome.kind === 'reused_code'
      ? REUSED_CODE
      : WRONG_CODE;

/** The QR code of an otpauth:// URI as inline SVG (no script, no image request), made on the server. */
async function qrSvg(uri: string): Promise<Html> {
  const { toString } = await import('qrcode');
  return new Html(await toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 220 }));
}

/**
 * Two-factor sign-in: setting it up and turning it off on the account page, the code after the
 * password at sign-in, and the owner's setting that requires it of a project's members.
 */
export function twoFactorPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, sessions, flashes } = context;
  const { twoFactor } = sessions;
  /** The signed-in account acting on itself (the audit record's actor). */
  const self = (request: FastifyRequest) => ({
    kind: 'account' as const,
    account: signedInOf(request).account,
    address: request.ip,
  });

  /**
   * The project that sent the person to set two-factor up, by its slug: only one they are a member of
   * and that requires it (the page tells nobody else whether a project exists), so the way back is
   * always a project page of theirs, never a link made from what was typed.
   */
  const requiringProject = async (accountId: string, slug: unknown) => {
    if (typeof slug !== 'string' || slug === '') return undefined;
    const project = await storage.projects.bySlug(slug);
    const member = project && (await storage.projects.roleOf(accountId, project.id));
    return member && (await twoFactor.required(project.id)) ? project : undefined;
  };

  const enrolPage = async (request: FastifyRequest, reply: FastifyReply, problem?: string, status = 200) => {
    const { account, csrfToken } = context.signedIn(request);
    const enrolment = await twoFactor.enrolment(account);
    if (!enrolment) return context.back(reply, ACCOUNT);
    const { project: slug } = request.query as { project?: string };
    const requiredBy = await requiringProject(account.id, slug ?? field(request.body, 'project'));
    const main = twoFactorEnrolView({
      csrfToken,
      tokens: await context.accessTokens.active(account.id),
      secret: enrolment.secret,
      uri: enrolment.uri,
      qrSvg: await qrSvg(enrolment.uri),
      problem,
      requiredBy,
    });
    return context.page(request, reply, 'Set up two-factor sign-in', main, status);
  };

  /** No sign-in waits for a code here (none began, or its 5 minutes are over): the password form again. */
  const restart = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const main = signInView({ csrfToken: signInCsrfToken(request, reply), problem: RESTART });
    return sendPage(request, reply, { title: 'Sign in', main, status });
  };

  /** The second step for this account: its code, its passkeys, or both (whichever it has). */
  const signInStep = async (
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: string,
    problem?: string,
    status = 200,
  ) => {
    const passkeys = (await storage.accounts.passkeys(accountId)).length > 0;
    const totp = await twoFactor.enabled(accountId);
    const main = twoFactorSignInView({ csrfToken: signInCsrfToken(request, reply), problem, passkeys, totp });
    return sendPage(request, reply, { title: totp ? 'Enter your code' : 'Use your passkey', main, status });
  };

  /** New recovery codes when the second factor is a passkey (no TOTP code to type): the password again. */
  const regenerateWithPassword = async (request: FastifyRequest, reply: FastifyReply) => {
    const who = self(request);
    const confirmed = await confirmPassword(sessions, who.account, field(request.body, 'password'));
    const codes = confirmed === 'ok' ? await twoFactor.replaceRecoveryCodes(who) : undefined;
    await flashes.put(
      request,
      ACCOUNT,
      codes
        ? { recoveryCodes: codes, recoveryCodesRenewed: true }
        : {
            twoFactorProblem:
              typeof confirmed === 'number'
                ? retryText(confirmed)
                : confirmed === 'wrong'
                  ? 'Your password is not right.'
                  : 'Set up a second factor first: recovery codes come with it.',
          },
    );
    return context.back(reply, ACCOUNT);
  };

  return {
    twoFactorPage: (request, reply) => enrolPage(request, reply),
    async enableTwoFactor(request, reply) {
      const outcome = await twoFactor.confirm(
        self(request),
        field(request.body, 'code'),
        keptTokens(request.body),
      );
      if (outcome.kind === 'throttled') {
        reply.header('retry-after', String(outcome.retryAfterSeconds));
        return enrolPage(request, reply, retryText(outcome.retryAfterSeconds), 429);
      }
      if (outcome.kind !== 'confirmed') return enrolPage(request, reply, WRONG_CODE, 400);
      const back = await requiringProject(signedInOf(request).account.id, field(request.body, 'project'));
      await flashes.put(request, ACCOUNT, {
        recoveryCodes: outcome.recoveryCodes,
        ...(back ? { backTo: { slug: back.slug, name: back.name } } : {}),
        ...(outcome.revoked.length > 0 ? { notice: revokedText(outcome.revoked.length).trim() } : {}),
      });
      return context.back(reply, ACCOUNT);
    },
    async disableTwoFactor(request, reply) {
      const requiring = await lockedOutBy(storage.accounts, signedInOf(request).account.id, { totp: true });
      if (requiring.length > 0 && field(request.body, 'understood') !== 'yes') {
        await flashes.put(request, ACCOUNT, { twoFactorProblem: lockedOutText(requiring) });
        return context.back(reply, ACCOUNT);
      }
      const outcome = await twoFactor.disable(self(request), field(request.body, 'code'));
      if (outcome.kind === 'ok') {
        await flashes.put(request, ACCOUNT, { notice: 'Two-factor sign-in is off.' });
      } else {
        await flashes.put(request, ACCOUNT, { twoFactorProblem: codeProblem(outcome) });
      }
      return context.back(reply, ACCOUNT);
    },
    async regenerateRecoveryCodes(request, reply) {
      const who = self(request);
      if (!(await twoFactor.enabled(who.account.id))) return regenerateWithPassword(request, reply);
      const outcome = await twoFactor.regenerateRecoveryCodes(who, field(request.body, 'code'));
      await flashes.put(
        request,
        ACCOUNT,
        outcome.kind === 'regenerated'
          ? { recoveryCodes: outcome.recoveryCodes, recoveryCodesRenewed: true }
          : { twoFactorProblem: codeProblem(outcome) },
      );
      return context.back(reply, ACCOUNT);
    },
    async twoFactorSignInPage(request, reply) {
      const challenge = await twoFactor.challenged(twoFactorCookie(request));
      if (!challenge) return restart(request, reply, 200);
      return signInStep(request, reply, challenge.accountId);
    },
    async twoFactorSignIn(request, reply) {
      const token = twoFactorCookie(request);
      const challenge = await twoFactor.challenged(token);
      if (!challenge) return restart(request, reply, 400);
      const outcome = await twoFactor.verify(challenge.accountId, field(request.body, 'code'));
      const line = { accountId: challenge.accountId, address: request.ip };
      if (outcome.kind === 'throttled') {
        request.log.warn({ event: 'sign_in.code_throttled', ...line }, 'two-factor code throttled');
        reply.header('retry-after', String(outcome.retryAfterSeconds));
        return signInStep(request, reply, challenge.accountId, retryText(outcome.retryAfterSeconds), 429);
      }
      if (outcome.kind !== 'ok') {
        request.log.warn(
          { event: 'sign_in.code_failed', ...line, reason: outcome.kind },
          'two-factor code refused',
        );
        const problem =
          outcome.kind === 'reused_code'
            ? REUSED_CODE
            : (await twoFactor.enabled(challenge.accountId))
              ? WRONG_CODE
              : WRONG_RECOVERY_CODE;
        return signInStep(request, reply, challenge.accountId, problem, 400);
      }
      const account = await storage.accounts.byId(challenge.accountId);
      if (!(await twoFactor.completeChallenge(token)) || !account) return restart(request, reply, 400);
      const started = await sessions.start(account);
      request.log.info(
        { event: 'sign_in.succeeded', ...line, secondFactor: outcome.recovery ? 'recovery_code' : 'totp' },
        'sign-in succeeded',
      );
      await context.audit(request, 'sign_in', null, { account });
      clearTwoFactorCookie(request, reply);
      setSessionCookie(request, reply, started.token, SESSION_TTL_MS);
      setDeviceCookie(request, reply, started.deviceCookie);
      return reply.redirect(challenge.next, 303);
    },
    async requireTwoFactor(request, reply) {
      const project = context.memberProject(request);
      const page = urlFor('projectPage', { slug: project.slug });
      const required = field(request.body, 'required') === 'yes';
      if (required && !(await storage.accounts.hasSecondFactor(signedInOf(request).account.id))) {
        await flashes.put(request, page, {
          twoFactorProblem: 'Turn on two-factor sign-in for your own account first (on your account page).',
        });
        return context.back(reply, page);
      }
      const changed = await context.projects.setTwoFactorRequired(
        dashboardActor(request),
        project.slug,
        required,
      );
      if (!changed.ok) {
        await flashes.put(request, page, { twoFactorProblem: changed.problem.message });
        return context.back(reply, page);
      }
      await flashes.put(request, page, {
        notice: required ? 'Members now need two-factor sign-in to reach this project.' : 'Saved.',
      });
      return context.back(reply, page);
    },
  };
}
