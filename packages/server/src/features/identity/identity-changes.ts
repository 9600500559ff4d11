import { accessTokenRecords, lockAccount, type TokenName } from '../access-tokens/repository.ts';
import { type AuditAction, type AuditEvent, createAuditRecords } from '../audit/audit-records.ts';
import { lockProject } from '../members/member-records.ts';
import {
  type Account,
  type AccountRepository,
  createAccountRepository,
  type NewAccount,
} from './account-repository.ts';
import { newestChangeOf } from '../../storage/change-records.ts';
import type { Store } from '../store.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import type { Clock } from '../../time/clock.ts';

/** Who makes an identity change: the account itself (in the dashboard), or the operator's command line. */
export type IdentityActor =
  { kind: 'account'; account: Pick<Account, 'id' | 'email'>; address: string | null } | { kind: 'operator' };

/** What the work of a change has at hand: the records of accounts and tokens on its transaction. */
export interface IdentityRecords {
  sql: SqlExecutor;
  accounts: AccountRepository;
}

/** What a change made (inside `change`): its value and how the audit trail records it. */
export interface IdentityChange<T> {
  value: T;
  /** Null: nothing was changed, so nothing is recorded (and no token revoked). */
  action: AuditAction | null;
  target: string | null;
  /** The account whose tokens (neither revoked nor expired) the change revokes, but those in `keep`. */
  revokeTokensOf?: { accountId: string; keep?: readonly string[] };
  /** Further records of the change, each in its project's trail (a removed account's memberships). */
  also?: { projectId: string; action: AuditAction; target: string | null }[];
  /**
   * An account whose tokens this transaction changed otherwise (removed with it): its change is waited
   * for too. Only when it did: the newest change of the account is then this transaction's.
   */
  tokensChangedOf?: string;
}

/** A change committed: its value and the access tokens it revoked. */
export interface Changed<T> {
  value: T;
  revoked: TokenName[];
}

export interface IdentityDeps {
  storage: Pick<Store, 'transaction' | 'kind'>;
  clock: Clock;
  /**
   * Resolves once a committed change of the feed has been applied by this instance and its
   * notification has come back (ChangeFeed.echo): a token revocation is answered only then. Absent
   * where no instance serves requests (the operator's command line).
   */
  echo?: (seq: number) => Promise<boolean>;
}

const whoOf = (who: IdentityActor): Pick<AuditEvent, 'actorAccountId' | 'actor' | 'address' | 'via'> =>
  who.kind === 'operator'
    ? { actorAccountId: null, actor: 'operator', address: null, via: 'cli' }
    : { actorAccountId: who.account.id, actor: who.account.email, address: who.address, via: 'dashboard' };

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
const tokenTarget = (token: TokenName) => `“${token.name}” (${token.prefix}…)`;

/**
 * The changes of who an account is and who may act as it: each one transaction holding the change,
 * the access tokens it revokes and its audit records, so the trail records exactly what was stored and
 * a change is never half made (issue 47). Password hashing, code checks and mail stay outside: the work
 * awaits nothing but its executor. Once committed, a change that revoked tokens waits for the change
 * feed's echo (bounded), so that it is answered only when this instance refuses the tokens and every
 * listening instance has been sent the notification (docs/reliability.md).
 */
export function createIdentityChanges(deps: IdentityDeps) {
  const { storage, clock } = deps;

  const change = async <T>(
    who: IdentityActor,
    work: (records: IdentityRecords) => Promise<IdentityChange<T>>,
  ): Promise<Changed<T>> => {
    const done = await storage.transaction(async (sql) => {
      const made = await work({ sql, accounts: createAccountRepository(sql) });
      if (made.action === null) return { value: made.value, revoked: [], seq: undefined };
      const audit = createAuditRecords(sql);
      const at = clock.now();
      const record = (projectId: string | null, action: AuditAction, target: string | null) =>
        audit.record({ at, projectId, ...whoOf(who), action, target });
      let revoked: TokenName[] = [];
      const of = made.revokeTokensOf;
      if (of) {
        await lockAccount(sql, storage.kind, of.accountId);
        revoked = await accessTokenRecords(sql).revokeAll(of.accountId, at, of.keep);
      }
      await record(null, made.action, made.target);
      for (const token of revoked) await record(null, 'access_token_revoked', tokenTarget(token));
      for (const note of made.also ?? []) await record(note.projectId, note.action, note.target);
      const changedOf = revoked.length > 0 ? of!.accountId : made.tokensChangedOf;
      const seq = changedOf === undefined ? undefined : await newestChangeOf(sql, { accountId: changedOf });
      return { value: made.value, revoked, seq };
    });
    if (done.seq !== undefined) await deps.echo?.(done.seq);
    return { value: done.value, revoked: done.revoked };
  };

  return {
    change,

    /** "Sign out everywhere": every session of the account ends and its access tokens are revoked. */
    signOutEverywhere: (who: IdentityActor, accountId: string) =>
      change(who, async ({ accounts }) => {
        const ended = await accounts.removeSessions(accountId);
        return {
          value: ended,
          action: 'signed_out_everywhere',
          target: `${plural(ended, 'session')} ended`,
          revokeTokensOf: { accountId },
        };
      }),

    /** A new account with its audit record; undefined when the address has one already. */
    createAccount: (who: IdentityActor, account: NewAccount) =>
      change(who, async ({ accounts }) => {
        const created = await accounts.create(account);
        if (!created) return { value: undefined, action: null, target: null };
        return { value: created, action: 'account_created', target: created.email };
      }),

    /**
     * Removes an account: its memberships, sessions and tokens go with it, and the invitations it made
     * that nobody accepted are revoked, each recorded in its project's trail. An account that is the
     * last owner of a project is not removed (whatever runs at the same time: the projects are locked
     * first): the answer names the projects it would leave without an owner.
     */
    removeAccount: (who: IdentityActor, accountId: string) =>
      change<{ removed: boolean; orphaned: string[] }>(who, async ({ sql, accounts }) => {
        const account = await accounts.byId(accountId);
        if (!account) return { value: { removed: false, orphaned: [] }, action: null, target: null };
        for (const { projectId } of await accounts.memberships(accountId)) {
          await lockProject(sql, storage.kind, projectId);
        }
        const orphaned = await accounts.soleOwnerOf(accountId);
        if (orphaned.length > 0) return { value: { removed: false, orphaned }, action: null, target: null };
        // Its tokens' rows go with it (each deletion is a change of the feed): waited for when there were any.
        const tokens = await accessTokenRecords(sql).countAll(accountId);
        const memberships = await accounts.memberships(accountId);
        const { invitations } = await accounts.remove(accountId);
        const { email } = account;
        return {
          value: { removed: true, orphaned: [] },
          action: 'account_removed',
          target: email,
          also: [
            ...memberships.map(({ projectId, role }) => ({
              projectId,
              action: 'member_removed' as const,
              target: `${email} (${role}), with the account`,
            })),
            ...invitations.map((invitation) => ({
              projectId: invitation.projectId,
              action: 'invitation_revoked' as const,
              target: `${invitation.email} as ${invitation.role} (made by ${email}, account removed)`,
            })),
          ],
          tokensChangedOf: tokens > 0 ? accountId : undefined,
        };
      }),
  };
}

export type IdentityChanges = ReturnType<typeof createIdentityChanges>;
