import type { ManageComponents } from './api-client.ts';
import { NotFoundError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { type PageOptions, type Pager, printPages } from './paged-output.ts';
import { formatInstant, formatTable } from './table.ts';

/** A member and an invitation as the management API shows them; the database mode prints the same. */
export type MemberJson = ManageComponents['schemas']['Member'];
export type InvitationJson = ManageComponents['schemas']['Invitation'];

const instant = (text: string): number => Date.parse(text);

/** `members list`: a table (ID, EMAIL, ROLE, SINCE), or with --json an array of Member objects. */
export function printMembers(io: CliIo, slug: string, members: MemberJson[], json: boolean): void {
  if (json) say(io, JSON.stringify(members));
  else if (members.length === 0) say(io, `${slug} has no members`);
  else
    say(
      io,
      formatTable(
        [{ title: 'ID' }, { title: 'EMAIL' }, { title: 'ROLE' }, { title: 'SINCE' }],
        members.map((m) => [m.id, m.email, m.role, formatInstant(instant(m.since), '')]),
      ),
    );
}

/**
 * The member `who` names (an account id, or an email address in any case) among the project's
 * members; unknown is exit status 3.
 */
export function memberNamed(members: MemberJson[], who: string, slug: string): MemberJson {
  const email = who.includes('@') ? who.trim().toLowerCase() : undefined;
  const member = members.find((m) => (email === undefined ? m.id === who : m.email === email));
  if (!member)
    throw new NotFoundError(`${who} is not a member of ${slug}; "petstore members list --project ${slug}"`);
  return member;
}

/** One invitation in words: to whom, as what, until when, made by whom. */
export function describeInvitation(invitation: InvitationJson, slug: string): string {
  const by = invitation.invitedBy ? `, by ${invitation.invitedBy.email}` : '';
  return `invitation ${invitation.id}: ${invitation.email} to ${slug} as ${invitation.role}, until ${formatInstant(instant(invitation.expiresAt), '')}${by}`;
}

/** `invitations list`: pages of pending invitations, newest first (printPages). */
export function printInvitations(
  io: CliIo,
  slug: string,
  pager: Pager<InvitationJson>,
  options: PageOptions,
): Promise<void> {
  return printPages<InvitationJson>(
    io,
    {
      command: `petstore invitations list --project ${slug}`,
      pager,
      columns: ['ID', 'EMAIL', 'ROLE', 'INVITED BY', 'CREATED', 'EXPIRES'].map((title) => ({ title })),
      row: (i) => [
        i.id,
        i.email,
        i.role,
        i.invitedBy?.email ?? 'operator',
        formatInstant(instant(i.createdAt), ''),
        formatInstant(instant(i.expiresAt), ''),
      ],
      record: (invitation) => JSON.stringify(invitation),
      empty: `no pending invitations; invite with: petstore invitations create --email E --role developer --project ${slug}`,
    },
    options,
  );
}
