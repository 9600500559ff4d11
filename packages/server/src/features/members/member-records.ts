import type { Role } from '../../http/route-config.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** What a member may do in a project: everything, keys and logs, or only read. */
export type { Role };
export const ROLES: readonly Role[] = ['owner', 'developer', 'viewer'];

export interface Member {
  accountId: string;
  email: string;
  role: Role;
  /** When the account joined the project. */
  since: number;
}

/** Why a change of members was not made. */
export type MemberChange = 'done' | 'not_member' | 'last_owner';

/** A pending invitation revoked with its inviter's removal or demotion. */
export interface RevokedInvitation {
  id: string;
  email: string;
  role: Role;
}

/** What a change of members did: its outcome, and the pending invitations it revoked. */
export interface MemberChanged {
  outcome: MemberChange;
  /** The member's pending invitations, once the member is an owner no more (only owners invite). */
  revoked: RevokedInvitation[];
}

/** What accepting an invitation did: the role held before (none: joined) and the role held now. */
export interface Joined {
  before: Role | undefined;
  role: Role;
}

export interface MemberRecords {
  /** The account's role in the project; undefined when it is not a member. */
  roleOf(accountId: string, projectId: string): Promise<Role | undefined>;
  /** The project's members, owners first, then by email. */
  members(projectId: string): Promise<Member[]>;
  /**
   * A project always keeps an owner: the last one cannot become anything else, whatever runs at the
   * same time. An owner made developer or viewer loses the invitations they made, in the same transaction.
   */
  setRole(accountId: string, projectId: string, role: Role): Promise<MemberChanged>;
  /**
   * A project always keeps an owner: the last one cannot be removed, whatever runs at the same time.
   * The member's pending invitations are revoked in the same transaction.
   */
  removeMember(accountId: string, projectId: string): Promise<MemberChanged>;
  /**
   * Joins the project by an invitation of `role`; a member already keeps the higher of the two roles
   * (an invitation never takes a role away).
   */
  joinByInvitation(accountId: string, projectId: string, at: number, role: Role): Promise<Joined>;
}

/**
 * The first statement of a transaction that changes a project's members or invitations. PostgreSQL:
 * the project's row, locked until the transaction ends (`FOR NO KEY UPDATE`: inserts referring to it
 * still pass), so such transactions of one project run one after another and each later statement,
 * under READ COMMITTED, sees what committed before. SQLite's `BEGIN IMMEDIATE` already runs one
 * writer at a time.
 */
export async function lockProject(sql: SqlExecutor, kind: 'sqlite' | 'postgres', projectId: string) {
  if (kind === 'postgres')
    await sql.all('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
}
