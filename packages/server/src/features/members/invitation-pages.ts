import { urlFor } from '../shared/urls.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { pendingInvitation, invitationDigest } from './invitation-mail.ts';
import { hashPassword, PASSWORD_CHECKS_BUSY, passwordProblem } from '../identity/passwords.ts';
import { SESSION_TTL_MS } from '../identity/sessions.ts';
import type { Account } from '../identity/account-repository.ts';
import { createMemberService } from './service.ts';
import type { Invitation } from './invitation-records.ts';
import type { Project } from '../projects/project-repository.ts';
import { type DashboardContext } from '../shared/dashboard-context.ts';
import { field } from '../../web/form-body.ts';
import { sendPage } from '../shared/page.ts';
import {
  deviceCookie,
  setDeviceCookie,
  setSessionCookie,
  signInCsrfToken,
} from '../identity/session-cookie.ts';
import { logSignIn } from '../identity/sign-in-log.ts';
import { setTwoFactorCookie } from '../identity/two-factor-cookie.ts';
import { retryText } from '../identity/sign-in-pages.ts';
import { invalidInvitationView, invitationView } from './invitation-view.ts';

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;

const CODE_NEEDED =
  'This account signs in with a code too: type your password and the code your app shows now (or a recovery code).';

/**
 * The page an invitation link opens, and its forms: the invitee chooses a password (a new account: the
 * mailed link proves the mailbox) or signs in (an existing account: only its password proves it), and
 * joins the project with the invitation's role. The page is the same for both until a form is sent.
 * Like the sign-in form, a refusal answers with the page itself (400, or 429 with Retry-After).
 */
export function invitationPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, sessions, clock } = context;
  const members = createMemberService({ storage, clock });

  const invalid = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(request, reply, { title: 'Invitation', main: invalidInvitationView(), status: 404 });

  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    found: { invitation: Invitation; project: Project },
    problem?: string,
    status = 200,
    askCode = false,
  ) => {
    const csrfToken = signInCsrfToken(request, reply);
    const main = invitationView({ csrfToken, token, ...found, problem, askCode });
    return sendPage(request, reply, { title: `Join ${found.project.name}`, main, status });
  };

  /**
   * Joins by the link (through the members service; with the account made in the same transaction when
   * `create` is given) and signs the browser in as `account`: the project's page. Without `signedIn`
   * (a passkey is the account's second factor), the browser gets the passkey step of a sign-in that
   * goes on to the project instead of a session.
   */
  const join = async (
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    token: string,
    signedIn?: () => Promise<{ token: string; deviceCookie: string }>,
    create?: Account,
  ) => {
    const accepted = create
      ? await members.acceptWithNewAccount(create, token, request.ip)
      : await members.accept(account, token, request.ip);
    if (!accepted.ok) return undefined;
    const { project, joined } = accepted.value;
    const page = urlFor('projectPage', { slug: project.slug });
    const session = signedIn ? await signedIn() : undefined;
    request.log.info(
      {
        event: 'invitation.accepted',
        project: project.slug,
        accountId: account.id,
        before: joined.before,
        role: joined.role,
      },
      'invitation accepted',
    );
    if (!session) {
      setTwoFactorCookie(request, reply, await sessions.twoFactor.challenge(account.id, page));
      return page;
    }
    setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
    setDeviceCookie(request, reply, session.deviceCookie);
    // The page to go to (not the reply: a reply is thenable, and awaiting it waits for the answer).
    return page;
  };

  return {
    async invitationPage(request, reply) {
      const { token = '' } = request.query as { token?: string };
      const found = await pendingInvitation(storage.projects, token, clock.now());
      return found ? show(request, reply, token, found) : invalid(request, reply);
    },
    async acceptInvitation(request, reply) {
      const token = field(request.body, 'token');
      const found = await pendingInvitation(storage.projects, token, clock.now());
      if (!found) return invalid(request, reply);
      const { email } = found.invitation;
      const password = field(request.body, 'password');
      // The new-account form sends the password twice; the sign-in form once.
      const body = request.body;
      if (typeof body !== 'object' || body === null || !Object.hasOwn(body, 'repeat')) {
        const outcome = await sessions.signIn(email, password, {
          clientAddress: request.ip,
          deviceCookie: deviceCookie(request),
        });
        logSignIn(request, email, outcome);
        if (outcome.kind === 'throttled') {
          reply.header('retry-after', String(outcome.retryAfterSeconds));
          return show(request, reply, token, found, retryText(outcome.retryAfterSeconds), 429);
        }
        if (outcome.kind === 'refused') {
          const problem = `That password is not right for an account with ${email}.`;
          return show(request, reply, token, found, problem, 400);
        }
        let signedIn: { token: string; deviceCookie: string } | undefined =
          outcome.kind === 'signed_in' ? outcome : undefined;
        if (outcome.kind === 'two_factor' && !(await sessions.twoFactor.enabled(outcome.account.id))) {
          // Its second factor is a passkey, which this form cannot take: the password and the mailed
          // link join, and the passkey step (no session before it) leads to the project.
          const page = await join(request, reply, outcome.account, token);
          return page ? reply.redirect(urlFor('twoFactorSignInPage'), 303) : invalid(request, reply);
        }
        if (outcome.kind === 'two_factor') {
          // The account's second factor, typed on this form: the password alone does not join.
          const code = await sessions.twoFactor.verify(outcome.account.id, field(request.body, 'code'));
          if (code.kind === 'throttled') reply.header('retry-after', String(code.retryAfterSeconds));
          if (code.kind !== 'ok') {
            const problem = code.kind === 'throttled' ? retryText(code.retryAfterSeconds) : CODE_NEEDED;
            return show(request, reply, token, found, problem, code.kind === 'throttled' ? 429 : 400, true);
          }
          signedIn = await sessions.start(outcome.account);
        }
        const session = signedIn;
        if (!session) return invalid(request, reply);
        const page = await join(request, reply, outcome.account, token, async () => session);
        return page ? reply.redirect(page, 303) : invalid(request, reply);
      }
      // Refused posts are throttled per link and per client: each costs a strength check.
      const { throttle } = sessions;
      const link = invitationDigest(token);
      const wait = Math.max(
        await throttle.waitSeconds('invitationLink', link),
        await throttle.waitSeconds('newPasswordAddress', request.ip),
      );
      const refused = async (problem: string) => {
        await Promise.all([
          throttle.failed('invitationLink', link),
          throttle.failed('newPasswordAddress', request.ip),
        ]);
        return show(request, reply, token, found, problem, 400);
      };
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return show(request, reply, token, found, retryText(wait), 429);
      }
      if (password !== field(request.body, 'repeat')) return refused('The two passwords differ.');
      if (await storage.accounts.byEmail(email)) {
        // Only the holder of the mailed link reads this: the mailbox's owner, who may know it.
        return show(
          request,
          reply,
          token,
          found,
          `${email} has an account already: sign in with it below to join.`,
          400,
        );
      }
      const ticket = { lane: `address:${request.ip}`, priority: false };
      const problem = await passwordProblem(password, { email, ticket, strength: sessions.strength });
      if (problem === PASSWORD_CHECKS_BUSY) {
        reply.header('retry-after', '1');
        return show(request, reply, token, found, retryText(1), 429);
      }
      if (problem) return refused(capitalised(problem));
      const hashed = await sessions.gate.run(ticket, () => hashPassword(password, sessions.passwordParams));
      if (!hashed.ran) {
        reply.header('retry-after', '1');
        return show(request, reply, token, found, retryText(1), 429);
      }
      const account: Account = {
        id: `acc_${randomBytes(8).toString('hex')}`,
        email,
        passwordHash: hashed.value,
        createdAt: clock.now(),
        devicesValidAfter: 0,
      };
      // The account, its record and the acceptance are one transaction: a link used or revoked
      // meanwhile (or an account made for the address meanwhile) leaves nothing behind.
      const page = await join(request, reply, account, token, () => sessions.start(account), account);
      return page ? reply.redirect(page, 303) : invalid(request, reply);
    },
  };
}
