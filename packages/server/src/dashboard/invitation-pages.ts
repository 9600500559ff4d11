import { urlFor } from '../routes/urls.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { pendingInvitation, invitationDigest } from '../accounts/invitations.ts';
import { hashPassword, passwordProblem } from '../accounts/passwords.ts';
import { SESSION_TTL_MS } from '../accounts/sessions.ts';
import type { Account } from '../storage/account-repository.ts';
import { invitationAcceptedRecord } from '../storage/audit-records.ts';
import type { Invitation } from '../storage/invitation-records.ts';
import type { Project } from '../storage/project-repository.ts';
import { type DashboardContext } from './context.ts';
import { field } from '../web/form-body.ts';
import { sendPage } from './page.ts';
import { deviceCookie, setDeviceCookie, setSessionCookie, signInCsrfToken } from './session-cookie.ts';
import { logSignIn } from './sign-in-log.ts';
import { retryText } from './sign-in-pages.ts';
import { invalidInvitationView, invitationView } from './views/invitation.ts';

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;

/**
 * The page an invitation link opens, and its form: the invitee signs in (an existing account) or
 * chooses a password (a new one), and joins the project with the invitation's role. Like the sign-in
 * form, a refusal answers with the page itself (400, or 429 with Retry-After).
 */
export function invitationPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, sessions, clock } = context;

  const invalid = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(request, reply, { title: 'Invitation', main: invalidInvitationView(), status: 404 });

  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    found: { invitation: Invitation; project: Project },
    problem?: string,
    status = 200,
  ) => {
    const main = invitationView({
      csrfToken: signInCsrfToken(request, reply),
      token,
      ...found,
      existing: (await storage.accounts.byEmail(found.invitation.email)) !== undefined,
      problem,
    });
    return sendPage(request, reply, { title: `Join ${found.project.name}`, main, status });
  };

  /** Joins, signs the browser in as `account` and goes to the project. */
  const join = async (
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    found: { invitation: Invitation; project: Project },
    signedIn: { token: string; deviceCookie: string },
  ) => {
    const { invitation, project } = found;
    const joined = await storage.projects.joinByInvitation(
      account.id,
      project.id,
      clock.now(),
      invitation.role,
    );
    const record = invitationAcceptedRecord(account.email, invitation.role, joined);
    await context.audit(request, record.action, record.target, { account, project });
    request.log.info(
      {
        event: 'invitation.accepted',
        invitationId: invitation.id,
        project: project.slug,
        accountId: account.id,
        invited: invitation.role,
        before: joined.before,
        role: joined.role,
      },
      'invitation accepted',
    );
    setSessionCookie(request, reply, signedIn.token, SESSION_TTL_MS);
    setDeviceCookie(request, reply, signedIn.deviceCookie);
    return reply.redirect(urlFor('projectPage', { slug: project.slug }), 303);
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
      const existing = await storage.accounts.byEmail(email);
      if (existing) {
        const outcome = await sessions.signIn(email, password, {
          clientAddress: request.ip,
          deviceCookie: deviceCookie(request),
        });
        logSignIn(request, email, outcome);
        if (outcome.kind === 'throttled') {
          reply.header('retry-after', String(outcome.retryAfterSeconds));
          return show(request, reply, token, found, retryText(outcome.retryAfterSeconds), 429);
        }
        if (outcome.kind === 'refused')
          return show(request, reply, token, found, 'That password is not right.', 400);
        if (!(await storage.projects.acceptInvitation(invitationDigest(token), clock.now()))) {
          return invalid(request, reply);
        }
        return join(request, reply, outcome.account, found, outcome);
      }
      if (password !== field(request.body, 'repeat')) {
        return show(request, reply, token, found, 'The two passwords differ.', 400);
      }
      const problem = await passwordProblem(password, { email });
      if (problem) return show(request, reply, token, found, capitalised(problem), 400);
      const hashed = await sessions.gate.run({ lane: `address:${request.ip}`, priority: false }, () =>
        hashPassword(password, sessions.passwordParams),
      );
      if (!hashed.ran) {
        reply.header('retry-after', '1');
        return show(request, reply, token, found, retryText(1), 429);
      }
      if (!(await storage.projects.acceptInvitation(invitationDigest(token), clock.now()))) {
        return invalid(request, reply);
      }
      const account = await storage.accounts.create({
        id: `acc_${randomBytes(8).toString('hex')}`,
        email,
        passwordHash: hashed.value,
        createdAt: clock.now(),
      });
      if (!account) return invalid(request, reply);
      return join(request, reply, account, found, await sessions.start(account));
    },
  };
}
