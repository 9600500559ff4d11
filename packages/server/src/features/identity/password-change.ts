import type { TokenName } from '../access-tokens/repository.ts';
import type { Account, Session } from './account-repository.ts';
import type { Clock } from '../../time/clock.ts';
import type { IdentityChanges } from './identity-changes.ts';
import { hashPassword, PASSWORD_CHECKS_BUSY, passwordProblem, verifyPassword } from './passwords.ts';
import { BUSY_RETRY_SECONDS, type Sessions } from './sessions.ts';

export type PasswordChangeOutcome =
  | { kind: 'changed'; endedSessions: number; deviceCookie: string; revoked: TokenName[] }
  | { kind: 'wrong_password' }
  | { kind: 'refused'; problem: string }
  | { kind: 'throttled'; retryAfterSeconds: number };

export interface PasswordChangeDeps {
  sessions: Sessions;
  clock: Clock;
  identity: IdentityChanges;
}

/**
 * Changes the signed-in account's password: the current one must be right (wrong ones are throttled
 * like sign-ins, per account), the new one acceptable (refused ones are throttled per account and per
 * client address). Every other session of the account ends and its device cookies stop counting, but
 * this browser's: it gets a new one. Pending reset links stop working, and the account's access tokens
 * are revoked but those in `keep` (the person chose to keep them). All of it, with its audit records,
 * is one transaction.
 */
export async function changePassword(
  { sessions, clock, identity }: PasswordChangeDeps,
  signedIn: { session: Session; account: Account },
  currentPassword: string,
  newPassword: string,
  clientAddress?: string,
  keep: readonly string[] = [],
): Promise<PasswordChangeOutcome> {
  const { account, session } = signedIn;
  const { throttle } = sessions;
  const wait = Math.max(
    await throttle.waitSeconds('passwordChange', account.id),
    clientAddress === undefined ? 0 : await throttle.waitSeconds('newPasswordAddress', clientAddress),
  );
  if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };
  const ticket = { lane: `account:${account.id}`, priority: true };
  const checked = await sessions.gate.run(ticket, () =>
    verifyPassword(currentPassword, account.passwordHash, sessions.passwordParams),
  );
  if (!checked.ran) return { kind: 'throttled', retryAfterSeconds: BUSY_RETRY_SECONDS };
  if (!checked.value.ok) {
    await throttle.failed('passwordChange', account.id);
    return { kind: 'wrong_password' };
  }
  if (newPassword === currentPassword) {
    return { kind: 'refused', problem: 'the new password must differ from the current one' };
  }
  const problem = await passwordProblem(newPassword, {
    email: account.email,
    ticket,
    strength: sessions.strength,
  });
  if (problem === PASSWORD_CHECKS_BUSY) return { kind: 'throttled', retryAfterSeconds: BUSY_RETRY_SECONDS };
  if (problem) {
    // A refused new password costs a check: counted per account and per client like a wrong one.
    await Promise.all([
      throttle.failed('passwordChange', account.id),
      clientAddress === undefined ? undefined : throttle.failed('newPasswordAddress', clientAddress),
    ]);
    return { kind: 'refused', problem };
  }
  const hashed = await sessions.gate.run(ticket, () => hashPassword(newPassword, sessions.passwordParams));
  if (!hashed.ran) return { kind: 'throttled', retryAfterSeconds: BUSY_RETRY_SECONDS };
  // Only a change forgets the account's failures: a right current password with a refused new one does not.
  await throttle.succeeded('passwordChange', account.id);
  const now = clock.now();
  const who = { kind: 'account' as const, account, address: clientAddress ?? null };
  const { value: endedSessions, revoked } = await identity.change(who, async ({ accounts: records }) => {
    await records.setPasswordHash(account.id, hashed.value);
    await records.revokeDevices(account.id, now);
    await records.endPasswordResets(account.id);
    return {
      value: await records.removeSessions(account.id, session.idDigest),
      action: 'password_changed',
      target: null,
      revokeTokensOf: { accountId: account.id, keep },
    };
  });
  const deviceCookie = await sessions.devices.issue(account.id, now);
  return { kind: 'changed', endedSessions, deviceCookie, revoked };
}
