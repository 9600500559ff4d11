import type { Row } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** A passkey (a WebAuthn credential) of an account. */
export interface Passkey {
  /** The credential's id, base64url, as the authenticator made it. */
  id: string;
  accountId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export type PasskeyPurpose = 'register' | 'sign_in' | 'second_factor';

/** A challenge handed to a browser, waiting for its answer. */
export interface PasskeyChallenge {
  challenge: string;
  purpose: PasskeyPurpose;
  /** What it is tied to: the session, the sign-in's code step, or the sign-in form's cookie. */
  binding: string;
  /** The account whose passkey must answer it; null for a passkey-first sign-in (any account's). */
  accountId: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface PasskeyRecords {
  /** Adds a passkey; false when a passkey with this credential id exists already. */
  addPasskey(passkey: Passkey): Promise<boolean>;
  /** The account's passkeys, oldest first. */
  passkeys(accountId: string): Promise<Passkey[]>;
  passkey(id: string): Promise<Passkey | undefined>;
  /**
   * Records a use: the new counter and when. False when the passkey is gone or the counter did not
   * grow (a cloned authenticator, or a racing use of the same count); authenticators that keep no
   * counter report 0 every time, which is accepted.
   */
  usePasskey(id: string, counter: number, now: number): Promise<boolean>;
  /** Removes one of the account's passkeys; undefined when it has none with this id. */
  removePasskey(accountId: string, id: string): Promise<Passkey | undefined>;
  /**
   * Stores a challenge, then keeps only the newest `keep` of its binding: a binding holds a bounded
   * number of challenges however often it asks.
   */
  createPasskeyChallenge(challenge: PasskeyChallenge, keep: number): Promise<void>;
  /** Takes (deletes) the unexpired challenge of this purpose and binding: a challenge is used once. */
  takePasskeyChallenge(
    challenge: string,
    purpose: PasskeyPurpose,
    binding: string,
    now: number,
  ): Promise<PasskeyChallenge | undefined>;
}

const COLUMNS = 'id, account_id, public_key, counter, transports, name, created_at, last_used_at';

function toPasskey(row: Row): Passkey {
  const transports = row.transports as string;
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    publicKey: row.public_key as string,
    counter: Number(row.counter),
    transports: transports === '' ? [] : transports.split(','),
    name: row.name as string,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

function toChallenge(row: Row): PasskeyChallenge {
  return {
    challenge: row.challenge as string,
    purpose: row.purpose as PasskeyPurpose,
    binding: row.binding as string,
    accountId: (row.account_id as string | null) ?? null,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

export function createPasskeyRecords(sql: SqlExecutor): PasskeyRecords {
  return {
    async addPasskey(passkey) {
      const added = await sql.run(
        `INSERT INTO passkeys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
        [
          passkey.id,
          passkey.accountId,
          passkey.publicKey,
          passkey.counter,
          passkey.transports.join(','),
          passkey.name,
          passkey.createdAt,
          passkey.lastUsedAt,
        ],
      );
      return added > 0;
    },
    async passkeys(accountId) {
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM passkeys WHERE account_id = $1 ORDER BY created_at, id`,
        [accountId],
      );
      return rows.map(toPasskey);
    },
    async passkey(id) {
      const [row] = await sql.all(`SELECT ${COLUMNS} FROM passkeys WHERE id = $1`, [id]);
      return row && toPasskey(row);
    },
    async usePasskey(id, counter, now) {
      const used = await sql.run(
        `UPDATE passkeys SET counter = $2, last_used_at = $3
         WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))`,
        [id, counter, now],
      );
      return used > 0;
    },
    async removePasskey(accountId, id) {
      const [row] = await sql.all(
        `DELETE FROM passkeys WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [accountId, id],
      );
      return row && toPasskey(row);
    },
    async createPasskeyChallenge(challenge, keep) {
      await sql.run(
        `INSERT INTO passkey_challenges (challenge, purpose, binding, account_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          challenge.challenge,
          challenge.purpose,
          challenge.binding,
          challenge.accountId,
          challenge.createdAt,
          challenge.expiresAt,
        ],
      );
      await sql.run(
        `DELETE FROM passkey_challenges WHERE binding = $1 AND challenge NOT IN (
           SELECT challenge FROM passkey_challenges WHERE binding = $1
           ORDER BY created_at DESC, challenge DESC LIMIT $2)`,
        [challenge.binding, keep],
      );
    },
    async takePasskeyChallenge(challenge, purpose, binding, now) {
      const [row] = await sql.all(
        `DELETE FROM passkey_challenges
         WHERE challenge = $1 AND purpose = $2 AND binding = $3 AND expires_at > $4
         RETURNING challenge, purpose, binding, account_id, created_at, expires_at`,
        [challenge, purpose, binding, now],
      );
      return row && toChallenge(row);
    },
  };
}
