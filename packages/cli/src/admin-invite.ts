import {
  type Config,
  configuredOrigin,
  invitationUrl,
  invite,
  type Role,
  ROLES,
  type Storage,
} from '@petstore/server/operator';
import { type CliIo, note, say } from './io.ts';
import { NotFoundError } from './exit.ts';
import { recordOperator } from './operator-audit.ts';
import { UsageError } from './usage.ts';

/** `--role owner|developer|viewer`; `fallback` when absent. */
export function roleOption(value: string | boolean | undefined, fallback: Role): Role {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) {
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got "${String(value)}"`);
  }
  return value as Role;
}

/**
 * Where the dashboard is reached: `--base-url`, else the origin of PUBLIC_BASE_URL, else
 * PETSTORE_API_HOST over HTTPS, else this machine's port.
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
  return configuredOrigin(config) ?? `http://localhost:${config.port}`;
}

/** `admin invite`: a single-use link to join the project with a role, valid 7 days; printed, never mailed. */
export async function inviteMember(
  io: CliIo,
  storage: Storage,
  options: { email: string; slug: string | boolean | undefined; role: Role; origin: string; json: boolean },
): Promise<void> {
  if (typeof options.slug !== 'string') throw new UsageError('--project is required');
  const project = await storage.projects.bySlug(options.slug);
  if (!project) throw new NotFoundError(`no project with slug ${options.slug}`);
  const account = await storage.accounts.byEmail(options.email);
  if (account && (await storage.projects.roleOf(account.id, project.id))) {
    throw new UsageError(`${options.email} is a member of ${options.slug} already`);
  }
  const { token, invitation } = await invite(storage.projects, {
    project,
    email: options.email,
    role: options.role,
    invitedBy: null,
    now: Date.now(),
  });
  await recordOperator(storage, 'invitation_created', project.id, `${options.email} as ${options.role}`);
  const url = invitationUrl(options.origin, token);
  const expiresAt = new Date(invitation.expiresAt).toISOString();
  if (options.json) {
    say(
      io,
      JSON.stringify({ url, email: options.email, project: project.slug, role: options.role, expiresAt }),
    );
    return;
  }
  note(
    io,
    `invited ${options.email} to ${project.slug} as ${options.role}; the link works once, until ${expiresAt}:`,
  );
  say(io, url);
}
