import { createHash, randomBytes } from 'node:crypto';
import { invitationMail } from '../../mail/messages.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { type Delivery, OutboxFullError } from '../../mail/outbox-records.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { Refusal } from '../shared/outcome.ts';
import type { Invitation } from './invitation-records.ts';
import type { Role } from './member-records.ts';
import type { Project, ProjectRepository } from '../projects/project-repository.ts';

/** An invitation link works once, for 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Invitations a project may send (each one a mail to an address its owners choose), counted in the
 * rate limiter's store: enough to bring in a team, too few to use the service's mail server for spam.
 */
export const INVITATION_LIMITS = { perMinute: 10, perDay: 100 };

/** The dashboard page an invitation link opens; the token is a query parameter (redacted in logs). */
export const INVITATION_PATH = '/dashboard/invitation';

export const invitationDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The link to send: `<origin>/dashboard/invitation?token=…`. */
export const invitationUrl = (origin: string, token: string): string =>
  `${origin.replace(/\/+$/, '')}${INVITATION_PATH}?token=${token}`;

export interface NewInvitation {
  project: Project;
  /** Already normalised (features/identity/email.ts). */
  email: string;
  role: Role;
  invitedBy: string | null;
  now: number;
}

/** A new invitation and its link's token (256 random bits): the token is returned once, never stored. */
export function newInvitation({ project, email, role, invitedBy, now }: NewInvitation): {
  token: string;
  invitation: Invitation;
} {
  const token = randomBytes(32).toString('base64url');
  const invitation: Invitation = {
    id: `inv_${randomBytes(8).toString('hex')}`,
    tokenDigest: invitationDigest(token),
    projectId: project.id,
    email,
    role,
    invitedBy,
    createdAt: now,
    expiresAt: now + INVITATION_TTL_MS,
    acceptedAt: null,
  };
  return { token, invitation };
}

/** Stores a new invitation directly, without an audit record: test fixtures (the doors use features/members). */
export async function invite(
  projects: Pick<ProjectRepository, 'createInvitation'>,
  input: NewInvitation,
): Promise<{ token: string; invitation: Invitation }> {
  const made = newInvitation(input);
  await projects.createInvitation(made.invitation);
  return made;
}

/** Where an invitation is mailed from: the outbox, and the origin its link starts with. */
export interface InvitationMailer {
  outbox: Outbox;
  origin: string;
}

/** Retry-After of a refusal by a full outbox: the mail server has a backlog to work through first. */
export const OUTBOX_FULL_RETRY_SECONDS = 300;

/**
 * Queues the mail of an invitation's link to its address, in the transaction `sql` that stores the
 * invitation (links start with `origin`): the one way an invitation is sent for someone else to open,
 * so no door (a dashboard page, an API) shows the link to whoever invited. A full outbox refuses it
 * (503), and with it the change.
 */
export async function queueInvitationMail(
  sql: SqlExecutor,
  { outbox, origin }: InvitationMailer,
  made: { token: string; invitation: Invitation },
  project: Project,
): Promise<Delivery> {
  const mail = invitationMail({
    to: made.invitation.email,
    projectName: project.name,
    role: made.invitation.role,
    url: invitationUrl(origin, made.token),
    expiresAt: made.invitation.expiresAt,
  });
  try {
    return { id: await outbox.queue(sql, mail, made.invitation.id), state: 'queued', attempts: 0 };
  } catch (error) {
    if (!(error instanceof OutboxFullError)) throw error;
    throw new Refusal({
      code: 'service_unavailable',
      message: 'too many mails are waiting for the mail server: try again later',
      retryAfterSeconds: OUTBOX_FULL_RETRY_SECONDS,
    });
  }
}

/** The pending invitation a token stands for, with its project; undefined when used, revoked, expired or made up. */
export async function pendingInvitation(
  projects: ProjectRepository,
  token: string,
  now: number,
): Promise<{ invitation: Invitation; project: Project } | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const invitation = await projects.invitationByToken(invitationDigest(token));
  if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= now) return undefined;
  const project = await projects.byId(invitation.projectId);
  return project && { invitation, project };
}
