import { createMemberService } from '@petstore/server/features/members/service.ts';
import { invitationUrl } from '@petstore/server/features/members/invitation-mail.ts';
import { type Config, publicOrigin } from '@petstore/server/config.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import type { Problem } from '@petstore/server/features/shared/outcome.ts';
import { type Role, ROLES } from '@petstore/server/features/members/member-records.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { type CliIo, note, say } from './io.ts';
import { NotFoundError, refusalError } from './exit.ts';
import { UsageError } from './usage.ts';

/** A refusal of the members service as the command line reports it: its outcome's status (exitOfRefusal). */
export function refusalOf(problem: Problem, slug: string): Error {
  if (problem.code === 'not_found' && problem.param === 'slug')
    return new NotFoundError(`no project with slug ${slug}`);
  return refusalError(problem);
}

/** `--role owner|developer|viewer`; `fallback` when absent. */
export function roleOption(value: string | boolean | undefined, fallback: Role): Role {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) {
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got "${String(value)}"`);
  }
  return value as Role;
}

/**
 * Where the dashboard is reached: `--base-url`, else the origin the server's own links start with
 * (publicOrigin: PUBLIC_BASE_URL's, else https://PETSTORE_API_HOST, else http://localhost:PORT).
 */
export function dashboardOrigin(flag: string | undefined, config: Config): string {
  const text = flag;
  if (text !== undefined) {
    try {
      const url = new URL(text);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // reported below
    }
    throw new UsageError(`--base-url must be an http(s) URL, got "${text}"`);
  }
  return publicOrigin(config);
}

/** `admin invite`: a single-use link to join the project with a role, valid 7 days; printed, never mailed. */
export async function inviteMember(
  io: CliIo,
  storage: Store,
  options: { email: string; slug: string | boolean | undefined; role: Role; origin: string; json: boolean },
): Promise<void> {
  if (typeof options.slug !== 'string') throw new UsageError('--project is required');
  const outcome = await createMemberService({ storage, clock: systemClock }).inviteWithLink(
    OPERATOR,
    options.slug,
    { email: options.email, role: options.role },
  );
  if (!outcome.ok) throw refusalOf(outcome.problem, options.slug);
  const { token, invitation } = outcome.value;
  const url = invitationUrl(options.origin, token);
  const expiresAt = new Date(invitation.expiresAt).toISOString();
  if (options.json) {
    say(
      io,
      JSON.stringify({ url, email: options.email, project: options.slug, role: options.role, expiresAt }),
    );
    return;
  }
  note(
    io,
    `invited ${options.email} to ${options.slug} as ${options.role}; the link works once, until ${expiresAt}:`,
  );
  say(io, url);
}
