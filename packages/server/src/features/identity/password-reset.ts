import { createHash, randomBytes } from 'node:crypto';
import { passwordResetMail } from '../../mail/messages.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { createPasswordResetRecords } from './password-reset-records.ts';
import type { Store } from '../store.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import type { Account, AccountRepository } from './account-repository.ts';
import type { Clock } from '../../time/clock.ts';
import type { TokenName } from '../access-tokens/repository.ts';
import type { IdentityChanges } from './identity-changes.ts';
import { normalizeEmail } from './email.ts';
import { hashPassword, PASSWORD_CHECKS_BUSY, passwordProblem } from './passwords.ts';
import { BUSY_RETRY_SECONDS, type Sessions } from './sessions.ts';

/** A reset link works once, for 30 minutes. */
export const RESET_TTL_MS = 30 * 60_000;

/**
 * Reset requests counted in the rate limiter's store (shared by all instances with Redis), whether or
 * not the address has an account: per address typed (a mailbox is not flooded), per client address.
 */
export const RESET_LIMITS = {
  perEmail: { perMinute: 2, perDay: 10 },
  perClient: { perMinute: 5, perDay: 50 },
};

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface PasswordResetDeps {
  accounts: AccountRepository;
  /** Where a reset link and its mail are stored together, in one transaction. */
  storage: Pick<Store, 'transaction'>;
  sessions: Sessions;
  limiter: RateLimiter;
  clock: Clock;
  outbox: Outbox;
  identity: IdentityChanges;
}

export type ResetRequestOutcome =
  /** The same answer whether or not the address has an account. */
  | { kind: 'requested'; email: string }
  | { kind: 'invalid_email' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type ResetOutcome =
  | { kind: 'reset'; account: Account; endedSessions: number; revoked: TokenName[] }
  | { kind: 'invalid_link' }
  | { kind: 'refused'; problem: string }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * A single-use reset link and its mail, queued in the outbox in the same transaction, when the address
 * has an account; nothing when it has none. A full outbox refuses both (an error line, no link).
 */
async function queueResetMail(deps: PasswordResetDeps, email: string, linkFor: (token: string) => string) {
  const account = await deps.accounts.byEmail(email);
  if (!account) return;
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const mail = passwordResetMail({
    to: account.email,
    url: linkFor(token),
    validMinutes: RESET_TTL_MS / 60_000,
  });
  await deps.storage.transaction(async (sql) => {
    await createPasswordResetRecords(sql).createPasswordReset({
      tokenDigest: digest(token),
      accountId: account.id,
      createdAt: now,
      expiresAt: now + RESET_TTL_MS,
    });
    await deps.outbox.queue(sql, mail, account.id);
  });
}

/** "Forgot password?": throttled per address typed and per client, the same answer for every address. */
export async function requestPasswordReset(
  deps: PasswordResetDeps,
  typed: string,
  clientAddress: string,
  linkFor: (token: string) => string,
): Promise<ResetRequestOutcome> {
  const email = normalizeEmail(typed);
  if (!email) return { kind: 'invalid_email' };
  for (const [bucket, limits] of [
    [`password-reset:client:${clientAddress}`, RESET_LIMITS.perClient],
    [`password-reset:email:${email}`, RESET_LIMITS.perEmail],
  ] as const) {
    const decision = await deps.limiter.check({ bucket, ...limits });
    if (!decision.allowed) return { kind: 'throttled', retryAfterSeconds: decision.retryAfterSeconds ?? 60 };
  }
  // Looked up and mailed after the answer, so an address with an account takes no longer to answer.
  deps.outbox.sendWhenMade(() => queueResetMail(deps, email, linkFor));
  return { kind: 'requested', email };
}

/** The account a reset link stands for while it is unused and unexpired. */
export async function pendingReset(deps: Pick<PasswordResetDeps, 'accounts' | 'clock'>, token: string) {
  if (!TOKEN.test(token)) return undefined;
  const accountId = await deps.accounts.pendingPasswordReset(digest(token), deps.clock.now());
  return accountId === undefined ? undefined : deps.accounts.byId(accountId);
}

/**
 * Sets the password of the link's account: the link is used up, every session of the account ends, its
 * device cookies stop counting, its other reset links stop working and every access token of it is
 * revoked (whoever held the password may have made them), in one transaction with its audit records.
 * Nobody is signed in by it.
 */
export async function resetPassword(
  deps: PasswordResetDeps,
  token: string,
  password: string,
  clientAddress: string,
): Promise<ResetOutcome> {
  const account = await pendingReset(deps, token);
  if (!account) return { kind: 'invalid_link' };
  const ticket = { lane: `address:${clientAddress}`, priority: false };
  const problem = await passwordProblem(password, {
    email: account.email,
    ticket,
    strength: deps.sessions.strength,
  });
  if (problem === PASSWORD_CHECKS_BUSY) return { kind: 'throttled', retryAfterSeconds: BUSY_RETRY_SECONDS };
  if (problem) return { kind: 'refused', problem };
  const { gate, passwordParams } = deps.sessions;
  const hashed = await gate.run(ticket, () => hashPassword(password, passwordParams));
  if (!hashed.ran) return { kind: 'throttled', retryAfterSeconds: BUSY_RETRY_SECONDS };
  const now = deps.clock.now();
  const who = { kind: 'account' as const, account, address: clientAddress };
  const { value: endedSessions, revoked } = await deps.identity.change(who, async ({ accounts }) => {
    // Used by another request meanwhile: nothing is written.
    if ((await accounts.usePasswordReset(digest(token), now)) !== account.id) {
      return { value: undefined, action: null, target: null };
    }
    await accounts.setPasswordHash(account.id, hashed.value);
    await accounts.revokeDevices(account.id, now);
    await accounts.endPasswordResets(account.id);
    return {
      value: await accounts.removeSessions(account.id),
      action: 'password_reset',
      target: null,
      revokeTokensOf: { accountId: account.id },
    };
  });
  if (endedSessions === undefined) return { kind: 'invalid_link' };
  return { kind: 'reset', account, endedSessions, revoked };
}
