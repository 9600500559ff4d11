import { createMemberService } from '@petstore/server/features/members/service.ts';
import { createProjectService } from '@petstore/server/features/projects/service.ts';
import { memberJson } from '@petstore/server/features/members/json.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { ROLES, type Role } from '@petstore/server/features/members/member-records.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { attempt } from './api-refusal.ts';
import { openServerDatabase } from './database.ts';
import { EXIT, refusalError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { memberNamed, type MemberJson, printMembers } from './members-output.ts';
import { parseCommand, stringOption, UsageError } from './usage.ts';

const HELP = `petstore members <list|set-role|remove> --project <slug> [options]

  members list --project <slug> [--json]
      The project's members, owners first, then by email: account id, email, role, member since.
  members set-role <account id or email> --role owner|developer|viewer --project <slug> [--json]
      Gives the member another role. The project's last owner stays one (exit status 6); a demoted
      owner's invitations that nobody accepted are revoked.
  members remove <account id or email> --project <slug> [--json]
      Removes the member: their dashboard sessions end, and the invitations they made that nobody
      accepted are revoked. The project's last owner stays (exit status 6); an unknown member is 3.

  --json prints the management API's Member objects (an array for list; the member changed or removed).
  Through the management API, set-role and remove need an owner's write token; on the database they
  run as the operator, through the same members service.

${MODE_HELP}`;

const OPTIONS = {
  project: { type: 'string' },
  role: { type: 'string' },
  json: { type: 'boolean' },
  ...MODE_OPTIONS,
} as const;

/** The operations, whichever door they go through. */
interface MemberDoor {
  list(): Promise<MemberJson[]>;
  setRole(member: MemberJson, role: Role): Promise<MemberJson>;
  remove(member: MemberJson): Promise<MemberJson>;
}

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export async function runMembers(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'members', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action, ...positionals] = parsed.positionals;
  if (action !== 'list' && action !== 'remove' && action !== 'set-role') {
    throw new UsageError(
      action
        ? `unknown members command "${action}"; run "petstore members --help"`
        : 'members needs list, set-role or remove; run "petstore members --help"',
    );
  }
  if (positionals.length !== (action === 'list' ? 0 : 1))
    throw new UsageError(
      action === 'list'
        ? 'members list takes no arguments'
        : `members ${action} takes one account id or email`,
    );
  const role = stringOption(parsed, 'role');
  if (action === 'set-role' && (role === undefined || !isRole(role)))
    throw new UsageError(`members set-role needs --role ${ROLES.join('|')}`);
  if (action !== 'set-role' && role !== undefined) throw new UsageError('--role is for members set-role');
  const slug = stringOption(parsed, 'project');
  if (slug === undefined) throw new UsageError(`members ${action} needs --project <slug>`);
  const json = parsed.values.json === true;
  const run = async (door: MemberDoor) => {
    const members = await door.list();
    if (action === 'list') {
      printMembers(io, slug, members, json);
      return EXIT.ok;
    }
    const member = memberNamed(members, positionals[0]!, slug);
    if (action === 'set-role') {
      const changed = await door.setRole(member, role as Role);
      say(
        io,
        json
          ? JSON.stringify(changed)
          : `${changed.email} is now ${changed.role} of ${slug} (was ${member.role})`,
      );
      return EXIT.ok;
    }
    const removed = await door.remove(member);
    say(
      io,
      json
        ? JSON.stringify(removed)
        : `removed ${removed.email} (${removed.role}) from ${slug}; their dashboard sessions have ended`,
    );
    return EXIT.ok;
  };
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    const { api } = mode;
    return run({
      async list() {
        const listed = await attempt(api, (c) => c.get('/projects/{slug}/members', { path: { slug } }));
        if (!listed.ok) throw refusalError(listed.problem);
        return listed.value.data.data;
      },
      async setRole(member, newRole) {
        const changed = await attempt(api, (c) =>
          c.post('/projects/{slug}/members/{memberId}/role', {
            path: { slug, memberId: member.id },
            body: { role: newRole },
          }),
        );
        if (!changed.ok) throw refusalError(changed.problem);
        return changed.value.data;
      },
      async remove(member) {
        const removed = await attempt(api, (c) =>
          c.delete('/projects/{slug}/members/{memberId}', { path: { slug, memberId: member.id } }),
        );
        if (!removed.ok) throw refusalError(removed.problem);
        return removed.value.data;
      },
    });
  }
  const { storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    const deps = { storage, clock: systemClock };
    return await run({
      async list() {
        const listed = await createProjectService(deps).members(OPERATOR, slug);
        if (!listed.ok) throw refusalError(listed.problem);
        return listed.value.map(memberJson);
      },
      async setRole(member, newRole) {
        const changed = await createMemberService(deps).changeRole(OPERATOR, slug, member.id, newRole);
        if (!changed.ok) throw refusalError(changed.problem);
        return memberJson({ ...changed.value.member, role: newRole });
      },
      async remove(member) {
        const removed = await createMemberService(deps).remove(OPERATOR, slug, member.id);
        if (!removed.ok) throw refusalError(removed.problem);
        return memberJson(removed.value.member);
      },
    });
  } finally {
    await storage.close();
  }
}
