import type { Account } from './account-repository.ts';
import { verifyPassword } from './passwords.ts';
import { BUSY_RETRY_SECONDS, type Sessions } from './sessions.ts';

/**
 * The signed-in account's password asked again before a change a session left open must not make
 * alone (adding a passkey, new recovery codes without a TOTP code): checked like the password form's
 * current password, under its per-account throttle. 'ok', 'wrong', or the seconds to wait.
 */
export async function confirmPassword(
  sessions: Pick<Sessions, 'throttle' | 'gate' | 'passwordParams'>,
  account: Account,
  password: string,
): Promise<'ok' | 'wrong' | number> {
  const { throttle } = sessions;
  const wait = await throttle.waitSeconds('passwordChange', account.id);
  if (wait > 0) return wait;
  const checked = await sessions.gate.run({ lane: `account:${account.id}`, priority: true }, () =>
    verifyPassword(password, account.passwordHash, sessions.passwordParams),
  );
  if (!checked.ran) return BUSY_RETRY_SECONDS;
  if (!checked.value.ok) {
    await throttle.failed('passwordChange', account.id);
    return 'wrong';
  }
  return 'ok';
}
