import { createMemberService, INVITATION_PAGE } from '@petstore/server/features/members/service.ts';
import { invitationUrl } from '@petstore/server/features/members/invitation-mail.ts';
import { normalizeEmail } from '@petstore/server/features/identity/email.ts';
import { invitationJson, pendingJson } from '@petstore/server/features/members/json.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { dashboardOrigin, roleOption } from './admin-invite.ts';
import { attempt } from './api-refusal.ts';
import { openServerDatabase } from './database.ts';
import { EXIT, refusalError } from './exit.ts';
import { type CliIo, note, say } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { describeInvitation, type InvitationJson, printInvitations } from './members-output.ts';
import { cursorPager, MAX_PAGE_SIZE, type Pager } from './paged-output.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore invitations <list|create|revoke> --project <slug> [options]

  invitations list --project <slug> [--limit N] [--cursor C] [--all] [--json]
      Pending invitations (not accepted, not expired), newest first: id, email, role, who made it,
      created, expires. Pages of --limit (default 100); stderr names the next page's --cursor; --all
      prints every page.
  invitations create --email E --project <slug> [--role owner|developer|viewer] [--json]
      Invites E with the role (default developer), valid 7 days. Through the management API the link is
      mailed to E and never printed. On the database (the operator, on the server) no mail is sent: the
      link is printed alone on the last line (and as "url" with --json), starting with --base-url, else
      PUBLIC_BASE_URL's origin, else https://PETSTORE_API_HOST, else http://localhost:PORT.
  invitations revoke <id> --project <slug> [--json]
      The invitation's link stops working at once; one accepted, revoked or unknown exits with status 3.

  --json prints the management API's Invitation objects (an array for list). Through the management
  API these need an owner's token (create and revoke a write token); on the database they run as the
  operator, through the same members service. An invitation for a member is status 6. With --database,
  --base-url is the address the printed link starts with.

${MODE_HELP}`;

const OPTIONS = {
  project: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  ...MODE_OPTIONS,
} as const;

const ACTIONS = ['list', 'create', 'revoke'];

/** The three operations, whichever door they go through; `create` returns the link when it is printed. */
interface InvitationDoor {
  pager: Pager<InvitationJson>;
  create(email: string, role: string): Promise<{ invitation: InvitationJson; url?: string }>;
  revoke(id: string): Promise<InvitationJson>;
}

export async function runInvitations(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'invitations', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action, ...positionals] = parsed.positionals;
  if (action === undefined || !ACTIONS.includes(action)) {
    throw new UsageError(
      action
        ? `unknown invitations command "${action}"; run "petstore invitations --help"`
        : `invitations needs one of ${ACTIONS.join(', ')}; run "petstore invitations --help"`,
    );
  }
  if (positionals.length !== (action === 'revoke' ? 1 : 0))
    throw new UsageError(
      action === 'revoke'
        ? 'invitations revoke takes one invitation id'
        : `invitations ${action} takes no arguments`,
    );
  const slug = stringOption(parsed, 'project');
  if (slug === undefined) throw new UsageError(`invitations ${action} needs --project <slug>`);
  const typed = stringOption(parsed, 'email');
  if (action === 'create' && typed === undefined) throw new UsageError('invitations create needs --email E');
  const email = typed === undefined ? undefined : normalizeEmail(typed);
  if (typed !== undefined && !email) throw new UsageError(`--email must be an email address, got "${typed}"`);
  const role = roleOption(parsed.values.role, 'developer');
  const json = parsed.values.json === true;
  const paging = {
    json,
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), MAX_PAGE_SIZE),
    cursor: stringOption(parsed, 'cursor'),
    all: parsed.values.all === true,
  };
  const run = async (door: InvitationDoor) => {
    if (action === 'list') await printInvitations(io, slug, door.pager, paging);
    else if (action === 'revoke') {
      const revoked = await door.revoke(positionals[0]!);
      say(
        io,
        json
          ? JSON.stringify(revoked)
          : `revoked invitation ${revoked.id} (${revoked.email} as ${revoked.role}): its link no longer works`,
      );
    } else {
      const { invitation, url } = await door.create(email!, role);
      if (json) say(io, JSON.stringify({ ...invitation, ...(url && { url }) }));
      else {
        say(io, describeInvitation(invitation, slug));
        if (url) {
          note(io, 'no mail is sent from the command line: give the invitee this link, which works once');
          say(io, url);
        } else say(io, `the link was mailed to ${invitation.email}`);
      }
    }
    return EXIT.ok;
  };
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    const { api } = mode;
    return run({
      pager: cursorPager(INVITATION_PAGE.maxLimit, async (cursor, limit) => {
        const page = await attempt(api, (c) =>
          c.get('/projects/{slug}/invitations', { path: { slug }, query: { limit, cursor } }),
        );
        if (!page.ok) throw refusalError(page.problem);
        return page.value.data;
      }),
      async create(address, as) {
        const made = await attempt(api, (c) =>
          c.post('/projects/{slug}/invitations', {
            path: { slug },
            body: { email: address, role: as as InvitationJson['role'] },
          }),
        );
        if (!made.ok) throw refusalError(made.problem);
        return { invitation: made.value.data };
      },
      async revoke(id) {
        const revoked = await attempt(api, (c) =>
          c.delete('/projects/{slug}/invitations/{invitationId}', { path: { slug, invitationId: id } }),
        );
        if (!revoked.ok) throw refusalError(revoked.problem);
        return revoked.value.data;
      },
    });
  }
  const { config, storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    const members = createMemberService({ storage, clock: systemClock });
    return await run({
      pager: cursorPager(INVITATION_PAGE.maxLimit, async (cursor, limit) => {
        const page = await members.invitations(OPERATOR, slug, { limit, cursor });
        if (!page.ok) throw refusalError(page.problem);
        return { data: page.value.data.map(pendingJson), next: page.value.next };
      }),
      async create(address) {
        const made = await members.inviteWithLink(OPERATOR, slug, { email: address, role });
        if (!made.ok) throw refusalError(made.problem);
        const origin = dashboardOrigin(stringOption(parsed, 'base-url'), config);
        return {
          invitation: invitationJson(made.value.invitation, null),
          url: invitationUrl(origin, made.value.token),
        };
      },
      async revoke(id) {
        const revoked = await members.revokeInvitation(OPERATOR, slug, id);
        if (!revoked.ok) throw refusalError(revoked.problem);
        return pendingJson(revoked.value);
      },
    });
  } finally {
    await storage.close();
  }
}
