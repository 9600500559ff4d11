import { randomBytes } from 'node:crypto';
import { createMemberService } from '@petstore/server/features/members/service.ts';
import { createIdentityChanges } from '@petstore/server/features/identity/identity-changes.ts';
import { emailProblem, normalizeEmail } from '@petstore/server/features/identity/email.ts';
import { hashPassword, passwordProblem } from '@petstore/server/features/identity/passwords.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import type { Role } from '@petstore/server/features/members/member-records.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { dashboardOrigin, inviteMember, refusalOf, roleOption } from './admin-invite.ts';
import { openServerDatabase } from './database.ts';
import { CliError, EXIT, NotFoundError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { readNewPassword } from './password-input.ts';
import { parseCommand, stringOption, UsageError } from './usage.ts';

const HELP = `petstore admin <create|add-member|invite|remove> [options]

  admin create --email E       Creates a dashboard account. The password is read from standard input
                               (its first line) or asked twice at a terminal; never from a flag.
                               At least 12 characters.
  admin add-member --email E --project <slug> [--role owner|developer|viewer]
                               Gives the account access to the project in the dashboard, as an owner
                               unless --role says otherwise (an existing member gets the role).
  admin invite --email E --project <slug> [--role owner|developer|viewer] [--base-url URL] [--json]
                               Prints a single-use link (the last line of standard output), valid 7 days:
                               the invitee opens it, chooses a password (or signs in) and joins with the
                               role (default developer). No email is sent. The link starts with
                               --base-url, else PUBLIC_BASE_URL's origin, else https://PETSTORE_API_HOST,
                               else http://localhost:PORT.
  admin remove --email E       Deletes the account; its sessions end and its access tokens stop working
                               at once, on every instance, and the invitations it made that nobody
                               accepted yet are revoked (each project's trail records it). The last
                               owner of a project is not removed: status 6, naming the projects.

  The operator's own, on the database alone: --database URL (postgres://… or a SQLite file path), else
  DATABASE_URL, else ./data/petstore.db; never created here ("petstore migrate" does). Without
  --database, refused before anything is opened where PETSTORE_BASE_URL or PETSTORE_ACCESS_TOKEN is
  set, or (without DATABASE_URL) a login is saved for http://127.0.0.1:8080: they name the management
  API, which does not offer these. An account that exists
  already, or an invitation for a member, is status 6; an unknown project or account 3.`;

const OPTIONS = {
  email: { type: 'string' },
  project: { type: 'string' },
  role: { type: 'string' },
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
} as const;

function email(values: Record<string, string | boolean | undefined>): string {
  const text = values.email;
  if (typeof text !== 'string') throw new UsageError('--email is required');
  const normalized = normalizeEmail(text);
  if (!normalized) throw new UsageError(`--email must be an email address, got "${text}"`);
  return normalized;
}

/** A new address (an account, an invitation) that could pass for another person's is refused. */
function newEmail(address: string): string {
  const problem = emailProblem(address);
  if (problem) throw new UsageError(`--email: ${problem}`);
  return address;
}

const accountExists = (address: string) =>
  new CliError(`an account for ${address} already exists`, EXIT.conflict);

async function create(io: CliIo, storage: Store, address: string): Promise<void> {
  if (await storage.accounts.byEmail(address)) throw accountExists(address);
  const password = await readNewPassword(io);
  const problem = await passwordProblem(password, { email: address });
  if (problem) throw new UsageError(problem);
  const id = `acc_${randomBytes(8).toString('hex')}`;
  const { value: created } = await createIdentityChanges({ storage, clock: systemClock }).createAccount(
    { kind: 'operator' },
    { id, email: address, passwordHash: await hashPassword(password), createdAt: Date.now() },
  );
  if (!created) throw accountExists(address);
  say(
    io,
    `created account ${address}; add it to a project with: petstore admin add-member --email ${address} --project <slug>`,
  );
}

async function addMember(
  io: CliIo,
  storage: Store,
  address: string,
  slug: string | boolean | undefined,
  role: Role,
): Promise<void> {
  if (typeof slug !== 'string') throw new UsageError('--project is required');
  const members = createMemberService({ storage, clock: systemClock });
  const outcome = await members.set(OPERATOR, slug, address, role);
  if (!outcome.ok) {
    if (outcome.problem.param === 'email') {
      throw new NotFoundError(
        `no account for ${address}; create it with: petstore admin create --email ${address}`,
      );
    }
    throw refusalOf(outcome.problem, slug);
  }
  say(io, `${address} is ${role === 'owner' ? 'an' : 'a'} ${role} of ${slug}`);
}

async function remove(io: CliIo, storage: Store, address: string): Promise<void> {
  const account = await storage.accounts.byEmail(address);
  if (!account) throw new NotFoundError(`no account for ${address}`);
  const identity = createIdentityChanges({ storage, clock: systemClock });
  const { value } = await identity.removeAccount({ kind: 'operator' }, account.id);
  if (value.orphaned.length > 0) {
    const projects = value.orphaned.join(', ');
    throw new CliError(
      `${address} is the last owner of ${projects}: make another member an owner first (petstore admin add-member --email … --project … --role owner); nothing was removed`,
      EXIT.conflict,
    );
  }
  if (!value.removed) throw new NotFoundError(`no account for ${address}`);
  say(io, `removed account ${address}; its sessions have ended and its access tokens stop working`);
}

export async function runAdmin(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'admin', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action, ...extra] = parsed.positionals;
  if (!['create', 'add-member', 'invite', 'remove'].includes(action ?? '') || extra.length > 0) {
    throw new UsageError(
      action ? `unknown admin command "${[action, ...extra].join(' ')}"; run "petstore admin --help"` : HELP,
    );
  }
  const address = email(parsed.values);
  // The accounts are the operator's alone: with an access token in use, refused before anything is opened.
  await chooseMode(io, parsed, `admin ${action}`, { baseUrlIsLinks: true });
  const { config, storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    if (action === 'create') await create(io, storage, newEmail(address));
    else if (action === 'add-member')
      await addMember(io, storage, address, parsed.values.project, roleOption(parsed.values.role, 'owner'));
    else if (action === 'invite')
      await inviteMember(io, storage, {
        email: newEmail(address),
        slug: parsed.values.project,
        role: roleOption(parsed.values.role, 'developer'),
        origin: dashboardOrigin(stringOption(parsed, 'base-url'), config),
        json: parsed.values.json === true,
      });
    else await remove(io, storage, address);
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
