import type { AccountRepository } from './account-repository.ts';
import type { FactorLeftOut } from './two-factor-records.ts';

/**
 * The account's projects that require two-factor sign-in, when it would have no second factor left
 * without `leftOut` (its TOTP, or one passkey): what turning that factor off must warn of. None while
 * another factor remains (AccountRepository.hasSecondFactor says what counts).
 */
export async function lockedOutBy(
  accounts: Pick<AccountRepository, 'hasSecondFactor' | 'memberProjectsRequiringTwoFactor'>,
  accountId: string,
  leftOut: FactorLeftOut,
): Promise<{ slug: string; name: string }[]> {
  if (await accounts.hasSecondFactor(accountId, leftOut)) return [];
  return accounts.memberProjectsRequiringTwoFactor(accountId);
}
