import type { Invitation } from './invitation-records.ts';
import type { Member } from './member-records.ts';
import { iso } from '../shared/iso.ts';
import type { PendingInvitation } from './repository.ts';

/** A member as the management API (and `petstore members --json`) shows it. */
export const memberJson = (member: Member) => ({
  id: member.accountId,
  email: member.email,
  role: member.role,
  since: iso(member.since),
});

/** An invitation as the management API shows it: never its link or its token's digest. */
export const invitationJson = (invitation: Invitation, inviter: { id: string; email: string } | null) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  invitedBy: inviter,
  createdAt: iso(invitation.createdAt),
  expiresAt: iso(invitation.expiresAt),
  delivery: invitation.delivery
    ? { state: invitation.delivery.state, attempts: invitation.delivery.attempts }
    : null,
});

/** A pending invitation, with who made it (null: the operator, or an account since deleted). */
export const pendingJson = (invitation: PendingInvitation) =>
  invitationJson(
    invitation,
    invitation.invitedBy && invitation.inviterEmail
      ? { id: invitation.invitedBy, email: invitation.inviterEmail }
      : null,
  );
