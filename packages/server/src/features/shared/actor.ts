import type { AuditEvent } from '../audit/audit-records.ts';
import type { Role } from '../members/member-records.ts';
import type { Project, ProjectRepository } from '../projects/project-repository.ts';
import { type Outcome, done, refused } from './outcome.ts';
import { allows, neededText, ROLE_NAMES } from './roles.ts';

/** What an access token lets its account do: read or write, in some of its projects. */
export interface TokenGrant {
  tokenId: string;
  scope: 'read' | 'write';
  /** Whether it may manage its account's access tokens. */
  managesTokens?: boolean;
  /** When it stops working (epoch ms): a token it makes stops no later. */
  expiresAt?: number;
  projectIds: ReadonlySet<string>;
}

/**
 * Who asks for an operation, whatever the door: an account (signed in to the dashboard, or through
 * one of its access tokens), or the operator's command line on the server's database, which may do
 * anything.
 */
export type Actor =
  | {
      kind: 'account';
      accountId: string;
      email: string;
      /** The client address. */
      address: string | null;
      /** Present when the account acts through an access token. */
      token?: TokenGrant;
      /**
       * What the management API's guard decided for this request's project (its slug, the project and
       * the account's role there), so that the operation does not read them a second time.
       */
      checked?: Authorised & { slug: string };
    }
  | { kind: 'operator' }
  /** The service itself: its background checks of custom domains. */
  | { kind: 'service' };

export const OPERATOR: Actor = { kind: 'operator' };
export const SERVICE: Actor = { kind: 'service' };

/** What an actor acting in a project holds there: the operator holds every role. */
export interface Authorised {
  project: Project;
  role: Role;
}

/**
 * The one role check of every operation on a project: the project must exist and the actor be its
 * member (else 404, the same as a project that does not exist) and, through a token, be among the
 * token's projects; a write needs a write token (else 403 insufficient_scope) and the role `needed`
 * (else 403 forbidden). Through a token, a project that requires two-factor sign-in refuses an account
 * that has it off, whatever the operation (403 two_factor_required): the dashboard keeps such members
 * out of the project's pages, and a token is no way round that.
 */
export async function authorise(
  projects: Pick<ProjectRepository, 'bySlug' | 'roleOf' | 'requiringTwoFactor'>,
  actor: Actor,
  slug: string,
  needed: Role,
  write: boolean,
): Promise<Outcome<Authorised>> {
  if (actor.kind === 'account' && actor.checked?.slug === slug) {
    const { project, role } = actor.checked;
    if (!write || actor.token?.scope !== 'read') {
      if (allows(role, needed)) return done({ project, role });
    }
  }
  const project = await projects.bySlug(slug);
  const missing = refused('not_found', `you have no project ${slug}`, 'slug');
  if (!project) return missing;
  if (actor.kind !== 'account') return done({ project, role: 'owner' });
  if (actor.token && !actor.token.projectIds.has(project.id)) return missing;
  const role = await projects.roleOf(actor.accountId, project.id);
  if (!role) return missing;
  if (write && actor.token?.scope === 'read') {
    return refused('insufficient_scope', 'this access token may only read: a change needs a write token');
  }
  if (!allows(role, needed)) {
    return refused(
      'forbidden',
      `you are ${ROLE_NAMES[role]} of ${project.slug}: this needs ${neededText(needed)}`,
    );
  }
  if (actor.token && (await projects.requiringTwoFactor(actor.accountId, [project.id])).length > 0) {
    return refused(
      'two_factor_required',
      `${project.slug} requires two-factor sign-in: turn it on for your account (in the dashboard) to use a token here`,
    );
  }
  return done({ project, role });
}

/** The audit record's who, from where and through which door, for an action of `actor`. */
export function auditActor(actor: Actor): Pick<AuditEvent, 'actorAccountId' | 'actor' | 'address' | 'via'> {
  if (actor.kind === 'operator')
    return { actorAccountId: null, actor: 'operator', address: null, via: 'cli' };
  if (actor.kind === 'service')
    return { actorAccountId: null, actor: 'service', address: null, via: 'service' };
  return {
    actorAccountId: actor.accountId,
    actor: actor.email,
    address: actor.address,
    via: actor.token ? `token:${actor.token.tokenId}` : 'dashboard',
  };
}
