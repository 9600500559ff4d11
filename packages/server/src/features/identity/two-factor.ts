import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { TokenName } from '../access-tokens/repository.ts';
import type { AccountRepository } from './account-repository.ts';
import type { TwoFactorChallenge } from './two-factor-records.ts';
import type { Clock } from '../../time/clock.ts';
import type { IdentityActor, IdentityChanges } from './identity-changes.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import type { SecretBox } from './two-factor-secrets.ts';

/**
 * Two-factor sign-in with TOTP (RFC 6238) through otpauth: 6 digits, 30-second steps, SHA-1 (what
 * every authenticator app reads from a QR code), 160-bit secrets. A code is accepted one step early
 * or late (clocks drift), and once: the step of the last code accepted is stored, and no code of that
 * step or an earlier one works again. Ten single-use recovery codes (80 random bits each, stored as
 * SHA-256 digests) stand in for a lost phone or passkey: they belong to the account's second factor
 * as a whole (made with the first one, TOTP or a passkey; gone with the last). Wrong codes are
 * throttled per account like passwords.
 */
export const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Steps either side of now that a code may belong to. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in's second step must come within 5 minutes of its password. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** The name shown in authenticator apps beside the account's email. */
export const TOTP_ISSUER = 'Petstore';

export type CodeOutcome =
  | { kind: 'ok'; recovery: boolean }
  | { kind: 'wrong_code' }
  /** A current code, but of a step already used: the next code is needed (a failure all the same). */
  | { kind: 'reused_code' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** The account turning its own two-factor sign-in on or off, from the dashboard. */
export type SelfActor = Extract<IdentityActor, { kind: 'account' }>;

export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
}

export interface TwoFactor {
  enabled(accountId: string): Promise<boolean>;
  recoveryCodesLeft(accountId: string): Promise<number>;
  /** The pending enrolment (started now when there is none); undefined when two-factor is on already. */
  enrolment(account: { id: string; email: string }): Promise<Enrolment | undefined>;
  /**
   * Turns it on when `code` is the pending secret's: the recovery codes are returned this once. The
   * state, the codes' digests, the record and the revocation of the account's access tokens (but
   * those in `keep`) are one transaction.
   */
  confirm(
    who: SelfActor,
    code: string,
    keep?: readonly string[],
  ): Promise<CodeOutcome | { kind: 'confirmed'; recoveryCodes: string[]; revoked: TokenName[] }>;
  /** Checks a TOTP code (TOTP on) or a recovery code (any second factor), using it up. */
  verify(accountId: string, code: string): Promise<CodeOutcome>;
  /**
   * Turns TOTP off, given a code of the current secret (or a recovery code): the code used, the secret
   * removed (and the recovery codes, unless a passkey remains) and the record written in one
   * transaction. A wrong code when TOTP is off.
   */
  disable(who: SelfActor, code: string): Promise<CodeOutcome>;
  /**
   * New recovery codes, given a code of the current secret (or a recovery code): the code used, the
   * old codes replaced and the record written in one transaction; the new codes are returned this once.
   */
  regenerateRecoveryCodes(
    who: SelfActor,
    code: string,
  ): Promise<Exclude<CodeOutcome, { kind: 'ok' }> | { kind: 'regenerated'; recoveryCodes: string[] }>;
  /**
   * New recovery codes for an account whose second factor is a passkey (no TOTP code to type): the
   * page confirmed its password first. Replaced with their record in one transaction; undefined when
   * the account has no second factor.
   */
  replaceRecoveryCodes(who: SelfActor): Promise<string[] | undefined>;
  /** A sign-in waiting for its code; the token for the browser. */
  challenge(accountId: string, next: string): Promise<string>;
  challenged(token: string): Promise<TwoFactorChallenge | undefined>;
  /** Ends the challenge once its code is right; false when another request ended it first. */
  completeChallenge(token: string): Promise<boolean>;
  required(projectId: string): Promise<boolean>;
}

export interface TwoFactorDeps {
  accounts: AccountRepository;
  clock: Clock;
  throttle: SignInThrottle;
  box: SecretBox;
  /** Where turning it on or off is written, each with its record in one transaction. */
  identity: IdentityChanges;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const compact = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();
const recoveryDigest = (code: string) => digest(`petstore recovery ${compact(code)}`);

/** Sixteen base32 characters in groups of four: `abcd-efgh-ijkl-mnop`. */
function newRecoveryCode(): string {
  const text = new Secret({ buffer: randomBytes(10).buffer }).base32.toLowerCase();
  return text.match(/.{4}/g)!.join('-');
}

/** A new set of recovery codes: the codes to show once, and the digests to store. */
export function newRecoveryCodes(): { codes: string[]; digests: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, digests: codes.map(recoveryDigest) };
}

/** A typed code as what it proves: a recovery code's digest or a TOTP step; undefined when neither. */
type CheckedCode = { recovery: true; digest: string } | { recovery: false; step: number };

export function createTwoFactor({ accounts, clock, throttle, box, identity }: TwoFactorDeps): TwoFactor {
  /** The step `code` belongs to for this secret, near now; undefined when it is not a current code. */
  const stepOf = (secret: string, code: string): number | undefined => {
    if (!/^\d{6}$/.test(code)) return undefined;
    const timestamp = clock.now();
    const delta = TOTP.validate({
      ...TOTP_SETTINGS,
      token: code,
      secret: Secret.fromBase32(secret),
      timestamp,
      window: TOTP_WINDOW,
    });
    return delta === null ? undefined : TOTP.counter({ period: TOTP_SETTINGS.period, timestamp }) + delta;
  };

  /** Runs `check` unless the account must wait, and counts its answer: a false one is a failure. */
  const throttled = async (
    accountId: string,
    check: () => Promise<boolean>,
  ): Promise<{ kind: 'throttled'; retryAfterSeconds: number } | { kind: 'checked'; ok: boolean }> => {
    const wait = await throttle.waitSeconds('twoFactor', accountId);
    if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };
    const ok = await check();
    if (ok) await throttle.succeeded('twoFactor', accountId);
    else await throttle.failed('twoFactor', accountId);
    return { kind: 'checked', ok };
  };

  /**
   * What a typed code is (read only: nothing is used up yet): a recovery code (any second factor has
   * them; an account without one has none to match), or a TOTP code when TOTP is on.
   */
  const checkCode = async (accountId: string, typed: string): Promise<CheckedCode | undefined> => {
    const code = compact(typed);
    if (/^[A-Z2-7]{16}$/.test(code)) return { recovery: true, digest: recoveryDigest(code) };
    const state = await accounts.twoFactor(accountId);
    if (!state || state.confirmedAt === null) return undefined;
    const secret = await box.open(accountId, state.sealedSecret);
    const step = secret === undefined ? undefined : stepOf(secret, code);
    return step === undefined ? undefined : { recovery: false, step };
  };

  /** Uses the code up (a conditional UPDATE: of racing requests with one code, one wins). */
  const useCode = (records: AccountRepository, accountId: string, checked: CheckedCode) =>
    checked.recovery
      ? records.useRecoveryCode(accountId, checked.digest, clock.now())
      : records.useTwoFactorStep(accountId, checked.step);

  /**
   * A code checked and used up under the account's throttle; `use` does the using (and whatever must
   * be written with it): its answer says whether the code was accepted.
   */
  const withCode = async (
    accountId: string,
    typed: string,
    use: (checked: CheckedCode) => Promise<boolean>,
  ): Promise<CodeOutcome> => {
    let checked: CheckedCode | undefined;
    const outcome = await throttled(accountId, async () => {
      checked = await checkCode(accountId, typed);
      return checked !== undefined && (await use(checked));
    });
    if (outcome.kind === 'throttled') return outcome;
    if (outcome.ok) return { kind: 'ok', recovery: checked!.recovery };
    // A current code of a step already used: the next one is needed.
    return checked && !checked.recovery ? { kind: 'reused_code' } : { kind: 'wrong_code' };
  };

  const verify = (accountId: string, typed: string): Promise<CodeOutcome> =>
    withCode(accountId, typed, (checked) => useCode(accounts, accountId, checked));

  return {
    async enabled(accountId) {
      return ((await accounts.twoFactor(accountId))?.confirmedAt ?? null) !== null;
    },
    recoveryCodesLeft: (accountId) => accounts.recoveryCodesLeft(accountId),
    async enrolment({ id, email }) {
      const state = await accounts.twoFactor(id);
      if (state?.confirmedAt != null) return undefined;
      let secret = state && (await box.open(id, state.sealedSecret));
      if (secret === undefined) {
        secret = new Secret({ size: 20 }).base32;
        if (!(await accounts.beginTwoFactor(id, await box.seal(id, secret), clock.now()))) return undefined;
      }
      const totp = new TOTP({ ...TOTP_SETTINGS, issuer: TOTP_ISSUER, label: email, secret });
      return { secret, uri: totp.toString() };
    },
    async confirm(who, typed, keep = []) {
      const accountId = who.account.id;
      let codes: string[] = [];
      let revoked: TokenName[] = [];
      const outcome = await throttled(accountId, async () => {
        const state = await accounts.twoFactor(accountId);
        if (!state || state.confirmedAt !== null) return false;
        const secret = await box.open(accountId, state.sealedSecret);
        const step = secret === undefined ? undefined : stepOf(secret, compact(typed));
        if (step === undefined) return false;
        const fresh = newRecoveryCodes();
        codes = fresh.codes;
        const changed = await identity.change(who, async (records) => {
          const confirmed = await records.accounts.confirmTwoFactor(
            accountId,
            step,
            fresh.digests,
            clock.now(),
          );
          if (!confirmed) return { value: false, action: null, target: null };
          return {
            value: true,
            action: 'two_factor_enabled',
            target: null,
            revokeTokensOf: { accountId, keep },
          };
        });
        revoked = changed.revoked;
        return changed.value;
      });
      if (outcome.kind === 'throttled') return outcome;
      return outcome.ok ? { kind: 'confirmed', recoveryCodes: codes, revoked } : { kind: 'wrong_code' };
    },
    verify,
    disable: (who, typed) =>
      withCode(who.account.id, typed, async (checked) => {
        const { value } = await identity.change(who, async (records) => {
          const on = ((await records.accounts.twoFactor(who.account.id))?.confirmedAt ?? null) !== null;
          if (!on || !(await useCode(records.accounts, who.account.id, checked))) {
            return { value: false, action: null, target: null };
          }
          await records.accounts.removeTwoFactor(who.account.id);
          return { value: true, action: 'two_factor_disabled', target: null };
        });
        return value;
      }),
    async regenerateRecoveryCodes(who, typed) {
      const { codes, digests } = newRecoveryCodes();
      const outcome = await withCode(who.account.id, typed, async (checked) => {
        const { value } = await identity.change(who, async (records) => {
          const used = await useCode(records.accounts, who.account.id, checked);
          if (!used || !(await records.accounts.replaceRecoveryCodes(who.account.id, digests))) {
            return { value: false, action: null, target: null };
          }
          return { value: true, action: 'recovery_codes_regenerated', target: null };
        });
        return value;
      });
      return outcome.kind === 'ok' ? { kind: 'regenerated', recoveryCodes: codes } : outcome;
    },
    async replaceRecoveryCodes(who) {
      const { codes, digests } = newRecoveryCodes();
      const { value } = await identity.change(who, async (records) =>
        (await records.accounts.replaceRecoveryCodes(who.account.id, digests))
          ? { value: true, action: 'recovery_codes_regenerated', target: null }
          : { value: false, action: null, target: null },
      );
      return value ? codes : undefined;
    },
    async challenge(accountId, next) {
      const token = randomBytes(32).toString('base64url');
      await accounts.createTwoFactorChallenge({
        idDigest: digest(token),
        accountId,
        next,
        expiresAt: clock.now() + CHALLENGE_TTL_MS,
      });
      return token;
    },
    challenged: (token) =>
      /^[A-Za-z0-9_-]{43}$/.test(token)
        ? accounts.twoFactorChallenge(digest(token), clock.now())
        : Promise.resolve(undefined),
    completeChallenge: (token) => accounts.removeTwoFactorChallenge(digest(token)),
    required: (projectId) => accounts.twoFactorRequired(projectId),
  };
}
