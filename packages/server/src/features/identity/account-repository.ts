import { deleteUnacceptedInvitationsBy } from '../members/invitation-records.ts';
import { createPasskeyRecords, type PasskeyRecords } from './passkey-records.ts';
import { createPasswordResetRecords, type PasswordResetRecords } from './password-reset-records.ts';
import type { Row } from '../../storage/rows.ts';
import { createSignInRecords, type SignInRecords } from './sign-in-records.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { createTwoFactorRecords, type TwoFactorRecords } from './two-factor-records.ts';
import { deleteWhere } from '../../storage/limited-delete.ts';

/** Someone who signs in to the dashboard. */
export interface Account {
  id: string;
  /** Lower-case; unique. */
  email: string;
  /** `scrypt$…` (see features/identity/passwords.ts); never the password. */
  passwordHash: string;
  createdAt: number;
  /** Device cookies issued before this instant are not trusted (0: all are). */
  devicesValidAfter: number;
}

export type NewAccount = Omit<Account, 'devicesValidAfter'>;

/** A signed-in browser. The cookie holds a random token; only its SHA-256 digest is stored. */
export interface Session {
  idDigest: string;
  accountId: string;
  /** The synchronizer token every form of this session must send back. */
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

/** A pending invitation an account made, deleted with it. */
export interface MadeInvitation {
  projectId: string;
  email: string;
  role: string;
}

export interface AccountRepository
  extends SignInRecords, PasswordResetRecords, TwoFactorRecords, PasskeyRecords {
  /** The account, or undefined when the email is taken. */
  create(account: NewAccount): Promise<Account | undefined>;
  byEmail(email: string): Promise<Account | undefined>;
  byId(id: string): Promise<Account | undefined>;
  setPasswordHash(id: string, passwordHash: string): Promise<boolean>;
  /** From `at` on, the account's device cookies issued before are unknown devices. */
  revokeDevices(id: string, at: number): Promise<void>;
  createSession(session: Session): Promise<void>;
  /** The unexpired session with this digest and its account, read from the database every time. */
  findSession(idDigest: string, now: number): Promise<{ session: Session; account: Account } | undefined>;
  removeSession(idDigest: string): Promise<void>;
  /** Ends every session of the account but `exceptDigest` (when given); returns how many ended. */
  removeSessions(accountId: string, exceptDigest?: string): Promise<number>;
  /** The account's unexpired sessions. */
  countSessions(accountId: string, now: number): Promise<number>;
  /** Deletes sessions whose expiresAt <= now; returns how many. */
  purgeSessions(now: number, limit?: number): Promise<number>;
  /** The account's memberships (its role in each project), by project id. */
  memberships(accountId: string): Promise<{ projectId: string; role: string }[]>;
  /** The slugs of the projects the account is the only owner of. */
  soleOwnerOf(accountId: string): Promise<string[]>;
  /**
   * Deletes the account: its memberships, sessions, access tokens and two-factor go with it (ON DELETE
   * CASCADE); the invitations it made that nobody accepted are deleted first (they would otherwise
   * stay, with no inviter, as if the operator had made them) and returned. Run it in the transaction
   * that checks the last-owner rule (features/identity/identity-changes.ts).
   */
  remove(accountId: string): Promise<{ removed: boolean; invitations: MadeInvitation[] }>;
}

const ACCOUNT = 'a.id, a.email, a.password_hash, a.created_at, a.devices_valid_after';

function toAccount(row: Row): Account {
  return {
    id: row.id as string,
    email: row.email as string,
    passwordHash: row.password_hash as string,
    createdAt: Number(row.created_at),
    devicesValidAfter: Number(row.devices_valid_after),
  };
}

/**
 * One implementation for SQLite and PostgreSQL, on any executor: the storage's own (`storage.accounts`)
 * or a transaction's (the identity changes of features/identity/identity-changes.ts, each one transaction with
 * its audit record). An account is removed there too, under the last-owner rule.
 */
export function createAccountRepository(sql: SqlExecutor): AccountRepository {
  return {
    ...createSignInRecords(sql),
    ...createPasswordResetRecords(sql),
    ...createTwoFactorRecords(sql),
    ...createPasskeyRecords(sql),
    async create(account) {
      const [row] = await sql.all(
        `INSERT INTO accounts (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING id, email, password_hash, created_at, devices_valid_after`,
        [account.id, account.email, account.passwordHash, account.createdAt],
      );
      return row && toAccount(row);
    },
    async byEmail(email) {
      const [row] = await sql.all(`SELECT ${ACCOUNT} FROM accounts a WHERE a.email = $1`, [email]);
      return row && toAccount(row);
    },
    async byId(id) {
      const [row] = await sql.all(`SELECT ${ACCOUNT} FROM accounts a WHERE a.id = $1`, [id]);
      return row && toAccount(row);
    },
    async setPasswordHash(id, passwordHash) {
      return (await sql.run('UPDATE accounts SET password_hash = $2 WHERE id = $1', [id, passwordHash])) > 0;
    },
    async revokeDevices(id, at) {
      await sql.run('UPDATE accounts SET devices_valid_after = $2 WHERE id = $1', [id, at]);
    },
    async createSession(session) {
      await sql.run(
        'INSERT INTO sessions (id_digest, account_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [session.idDigest, session.accountId, session.csrfToken, session.createdAt, session.expiresAt],
      );
    },
    async findSession(idDigest, now) {
      const [row] = await sql.all(
        `SELECT s.id_digest, s.account_id, s.csrf_token, s.created_at AS session_created_at, s.expires_at, ${ACCOUNT}
         FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_digest = $1 AND s.expires_at > $2`,
        [idDigest, now],
      );
      if (!row) return undefined;
      return {
        session: {
          idDigest: row.id_digest as string,
          accountId: row.account_id as string,
          csrfToken: row.csrf_token as string,
          createdAt: Number(row.session_created_at),
          expiresAt: Number(row.expires_at),
        },
        account: toAccount(row),
      };
    },
    async removeSession(idDigest) {
      await sql.run('DELETE FROM sessions WHERE id_digest = $1', [idDigest]);
    },
    removeSessions: (accountId, exceptDigest) =>
      sql.run('DELETE FROM sessions WHERE account_id = $1 AND id_digest <> $2', [
        accountId,
        exceptDigest ?? '',
      ]),
    async countSessions(accountId, now) {
      const [row] = await sql.all(
        'SELECT count(*) AS n FROM sessions WHERE account_id = $1 AND expires_at > $2',
        [accountId, now],
      );
      return Number(row!.n);
    },
    async memberships(accountId) {
      const rows = await sql.all(
        'SELECT project_id, role FROM memberships WHERE account_id = $1 ORDER BY project_id',
        [accountId],
      );
      return rows.map((row) => ({ projectId: row.project_id as string, role: row.role as string }));
    },
    async soleOwnerOf(accountId) {
      const rows = await sql.all(
        `SELECT p.slug FROM memberships m JOIN projects p ON p.id = m.project_id
         WHERE m.account_id = $1 AND m.role = 'owner' AND NOT EXISTS (SELECT 1 FROM memberships o
           WHERE o.project_id = m.project_id AND o.role = 'owner' AND o.account_id <> m.account_id)
         ORDER BY p.slug`,
        [accountId],
      );
      return rows.map((row) => row.slug as string);
    },
    async remove(accountId) {
      const invitations = await deleteUnacceptedInvitationsBy(sql, accountId);
      const removed = (await sql.run('DELETE FROM accounts WHERE id = $1', [accountId])) > 0;
      return {
        removed,
        invitations,
      };
    },
    async purgeSessions(now, limit) {
      const expired = 'expires_at <= $1';
      let removed = await sql.run(deleteWhere('session_flashes', 'session_digest, page', expired, limit), [
        now,
      ]);
      removed += await sql.run(deleteWhere('two_factor_challenges', 'id_digest', expired, limit), [now]);
      removed += await sql.run(deleteWhere('passkey_challenges', 'challenge', expired, limit), [now]);
      return removed + (await sql.run(deleteWhere('sessions', 'id_digest', expired, limit), [now]));
    },
  };
}
