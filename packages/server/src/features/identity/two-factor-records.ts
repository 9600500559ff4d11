import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** An account's TOTP secret (sealed, see features/identity/two-factor-secrets.ts) and where it stands. */
export interface TwoFactorState {
  sealedSecret: string;
  /** When a typed code confirmed it; null while enrolling. */
  confirmedAt: number | null;
  /** The time step of the last code accepted (-1: none yet). */
  lastStep: number;
  createdAt: number;
}

/** A sign-in waiting for its code: the browser holds the token, only its digest is stored. */
export interface TwoFactorChallenge {
  idDigest: string;
  accountId: string;
  /** Where to go once the code is right (a dashboard path). */
  next: string;
  expiresAt: number;
}

/** A factor left out of the question: the account's TOTP, or one of its passkeys (by credential id). */
export type FactorLeftOut = { totp: true } | { passkey: string };

/**
 * Whether account `$1` has a second factor: TOTP confirmed, or a passkey (other than `$2` when a
 * passkey is left out). The one definition, in SQL, so that a statement over projects
 * (requiringTwoFactor) asks the same question as hasSecondFactor.
 */
const secondFactorSql = (leftOut?: FactorLeftOut) => {
  const totp = `EXISTS (SELECT 1 FROM account_two_factor t WHERE t.account_id = $1 AND t.confirmed_at IS NOT NULL)`;
  const passkey = `EXISTS (SELECT 1 FROM passkeys k WHERE k.account_id = $1${
    leftOut && 'passkey' in leftOut ? ' AND k.id <> $2' : ''
  })`;
  return leftOut && 'totp' in leftOut ? `(${passkey})` : `(${totp} OR ${passkey})`;
};

/** What two-factor sign-in keeps in the database, shared by every instance. */
export interface TwoFactorRecords {
  twoFactor(accountId: string): Promise<TwoFactorState | undefined>;
  /**
   * Whether the account signs in with a second factor: TOTP on, or at least one passkey. What sign-in,
   * a project's requirement and the warnings about turning it off ask; with `leftOut`, whether it
   * would still have one without that factor.
   */
  hasSecondFactor(accountId: string, leftOut?: FactorLeftOut): Promise<boolean>;
  /** Starts an enrolment with this secret (replacing an unconfirmed one); false when it is on already. */
  beginTwoFactor(accountId: string, sealedSecret: string, now: number): Promise<boolean>;
  /**
   * Turns the enrolment on with `step` as its first code and these recovery codes (replacing any);
   * false when there is no enrolment pending or `step` is not after its last one.
   */
  confirmTwoFactor(accountId: string, step: number, recoveryDigests: string[], now: number): Promise<boolean>;
  /** Records `step` as used; false when that step or a later one was used already (a replayed code). */
  useTwoFactorStep(accountId: string, step: number): Promise<boolean>;
  /** Marks an unused recovery code used; false when there is none with this digest. */
  useRecoveryCode(accountId: string, digest: string, now: number): Promise<boolean>;
  recoveryCodesLeft(accountId: string): Promise<number>;
  /**
   * New recovery codes replace every old one (used or not); false when the account has no second
   * factor (the codes belong to its two-factor as a whole: TOTP, passkeys, or both).
   */
  replaceRecoveryCodes(accountId: string, recoveryDigests: string[]): Promise<boolean>;
  /** The recovery codes go when the account has no second factor left (one statement); how many went. */
  dropRecoveryCodesWithoutSecondFactor(accountId: string): Promise<number>;
  /**
   * Turns TOTP off: the secret goes, and the recovery codes too unless a passkey remains; false when
   * it was off.
   */
  removeTwoFactor(accountId: string): Promise<boolean>;
  createTwoFactorChallenge(challenge: TwoFactorChallenge): Promise<void>;
  /** The unexpired challenge with this digest. */
  twoFactorChallenge(idDigest: string, now: number): Promise<TwoFactorChallenge | undefined>;
  /** Removes it; false when another request removed it first (a challenge completes once). */
  removeTwoFactorChallenge(idDigest: string): Promise<boolean>;
  setTwoFactorRequired(projectId: string, required: boolean, now: number): Promise<void>;
  twoFactorRequired(projectId: string): Promise<boolean>;
  /**
   * The slugs of those of `projectIds` that require two-factor sign-in, when the account has no second
   * factor (none when it has one, see hasSecondFactor): what an access token of the account may not reach (one statement).
   */
  requiringTwoFactor(accountId: string, projectIds: readonly string[]): Promise<string[]>;
  /** The projects the account is a member of that require two-factor sign-in, by name. */
  memberProjectsRequiringTwoFactor(accountId: string): Promise<{ slug: string; name: string }[]>;
}

export function createTwoFactorRecords(sql: SqlExecutor): TwoFactorRecords {
  const hasSecondFactor = async (accountId: string, leftOut?: FactorLeftOut) => {
    const params = leftOut && 'passkey' in leftOut ? [accountId, leftOut.passkey] : [accountId];
    const [row] = await sql.all(`SELECT ${secondFactorSql(leftOut)} AS has`, params);
    return row?.has === true || Number(row?.has) === 1;
  };
  const dropRecoveryCodesWithoutSecondFactor = (accountId: string) =>
    sql.run(`DELETE FROM recovery_codes WHERE account_id = $1 AND NOT ${secondFactorSql()}`, [accountId]);
  return {
    async twoFactor(accountId) {
      const [row] = await sql.all(
        'SELECT sealed_secret, confirmed_at, last_step, created_at FROM account_two_factor WHERE account_id = $1',
        [accountId],
      );
      return (
        row && {
          sealedSecret: row.sealed_secret as string,
          confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
          lastStep: Number(row.last_step),
          createdAt: Number(row.created_at),
        }
      );
    },
    hasSecondFactor,
    async beginTwoFactor(accountId, sealedSecret, now) {
      const changed = await sql.run(
        `INSERT INTO account_two_factor (account_id, sealed_secret, confirmed_at, last_step, created_at)
         VALUES ($1, $2, NULL, -1, $3)
         ON CONFLICT (account_id) DO UPDATE SET sealed_secret = $2, last_step = -1, created_at = $3
         WHERE account_two_factor.confirmed_at IS NULL`,
        [accountId, sealedSecret, now],
      );
      return changed > 0;
    },
    async confirmTwoFactor(accountId, step, recoveryDigests, now) {
      const confirmed = await sql.run(
        `UPDATE account_two_factor SET confirmed_at = $3, last_step = $2
         WHERE account_id = $1 AND confirmed_at IS NULL AND last_step < $2`,
        [accountId, step, now],
      );
      if (confirmed === 0) return false;
      await replaceCodes(sql, accountId, recoveryDigests);
      return true;
    },
    async useTwoFactorStep(accountId, step) {
      const changed = await sql.run(
        `UPDATE account_two_factor SET last_step = $2
         WHERE account_id = $1 AND confirmed_at IS NOT NULL AND last_step < $2`,
        [accountId, step],
      );
      return changed > 0;
    },
    async useRecoveryCode(accountId, digest, now) {
      const changed = await sql.run(
        'UPDATE recovery_codes SET used_at = $3 WHERE account_id = $1 AND digest = $2 AND used_at IS NULL',
        [accountId, digest, now],
      );
      return changed > 0;
    },
    async recoveryCodesLeft(accountId) {
      const [row] = await sql.all(
        'SELECT count(*) AS n FROM recovery_codes WHERE account_id = $1 AND used_at IS NULL',
        [accountId],
      );
      return Number(row!.n);
    },
    async replaceRecoveryCodes(accountId, recoveryDigests) {
      if (!(await hasSecondFactor(accountId))) return false;
      await replaceCodes(sql, accountId, recoveryDigests);
      return true;
    },
    dropRecoveryCodesWithoutSecondFactor,
    async removeTwoFactor(accountId) {
      const removed = await sql.run('DELETE FROM account_two_factor WHERE account_id = $1', [accountId]);
      await dropRecoveryCodesWithoutSecondFactor(accountId);
      return removed > 0;
    },
    async createTwoFactorChallenge({ idDigest, accountId, next, expiresAt }) {
      await sql.run(
        'INSERT INTO two_factor_challenges (id_digest, account_id, next, expires_at) VALUES ($1, $2, $3, $4)',
        [idDigest, accountId, next, expiresAt],
      );
    },
    async twoFactorChallenge(idDigest, now) {
      const [row] = await sql.all(
        'SELECT id_digest, account_id, next, expires_at FROM two_factor_challenges WHERE id_digest = $1 AND expires_at > $2',
        [idDigest, now],
      );
      return (
        row && {
          idDigest: row.id_digest as string,
          accountId: row.account_id as string,
          next: row.next as string,
          expiresAt: Number(row.expires_at),
        }
      );
    },
    async removeTwoFactorChallenge(idDigest) {
      return (await sql.run('DELETE FROM two_factor_challenges WHERE id_digest = $1', [idDigest])) > 0;
    },
    async setTwoFactorRequired(projectId, required, now) {
      await (required
        ? sql.run(
            'INSERT INTO project_two_factor (project_id, required_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
            [projectId, now],
          )
        : sql.run('DELETE FROM project_two_factor WHERE project_id = $1', [projectId]));
    },
    async requiringTwoFactor(accountId, projectIds) {
      if (projectIds.length === 0) return [];
      const list = projectIds.map((_, i) => `$${i + 2}`).join(', ');
      const rows = await sql.all(
        `SELECT p.slug FROM project_two_factor r JOIN projects p ON p.id = r.project_id
         WHERE r.project_id IN (${list}) AND NOT ${secondFactorSql()}
         ORDER BY p.slug`,
        [accountId, ...projectIds],
      );
      return rows.map((row) => row.slug as string);
    },
    async memberProjectsRequiringTwoFactor(accountId) {
      const rows = await sql.all(
        `SELECT p.slug, p.name FROM memberships m JOIN project_two_factor r ON r.project_id = m.project_id
         JOIN projects p ON p.id = m.project_id WHERE m.account_id = $1 ORDER BY p.name, p.slug`,
        [accountId],
      );
      return rows.map((row) => ({ slug: row.slug as string, name: row.name as string }));
    },
    async twoFactorRequired(projectId) {
      const [row] = await sql.all('SELECT 1 AS one FROM project_two_factor WHERE project_id = $1', [
        projectId,
      ]);
      return row !== undefined;
    },
  };
}

/** One statement for the new codes: they replace the old ones. */
async function replaceCodes(sql: SqlExecutor, accountId: string, digests: string[]): Promise<void> {
  await sql.run('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
  if (digests.length === 0) return;
  const values = digests.map((_, i) => `($1, $${i + 2}, NULL)`).join(', ');
  await sql.run(`INSERT INTO recovery_codes (account_id, digest, used_at) VALUES ${values}`, [
    accountId,
    ...digests,
  ]);
}
