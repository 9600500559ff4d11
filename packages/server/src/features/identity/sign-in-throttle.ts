import { createHash } from 'node:crypto';
import type { AccountRepository } from './account-repository.ts';
import type { Clock } from '../../time/clock.ts';

/**
 * How failed sign-ins slow the next ones down. Nothing ever locks anyone out for long: after `free`
 * failures in a row, each further failure makes its subject wait `firstWaitMs`, doubling with every
 * failure up to `maxWaitMs`. A day without a failure forgets them, and so does a success.
 */
export interface ThrottlePolicy {
  free: number;
  firstWaitMs: number;
  maxWaitMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** Failures are forgotten a day after the last one. */
export const FORGET_FAILURES_AFTER_MS = 24 * 60 * MINUTE;

/**
 * The policies, by subject. An email's unknown devices: 5 free, then 1 s, 2 s, 4 s … 15 min (about
 * 110 guesses in the first day, 96 a day after). A client address, whatever emails it tries: 20 free,
 * then the same. One known device: 10 free, then it counts as unknown for the same waits. A wrong
 * current password on the password form: 5 free, then the same, and so does a refused new password
 * there. A refused post of an invitation link (a password too weak, two that differ): 5 free per link,
 * then the same. Refused new passwords from one client address, whatever the link or account: 10
 * free, then the same. A wrong two-factor code of an account (sign-in, set-up, turning it off): 5
 * free, then the same: about 110 guesses a day against a million codes.
 */
export const THROTTLE_POLICIES = {
  email: { free: 5, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
  address: { free: 20, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
  device: { free: 10, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
  passwordChange: { free: 5, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
  invitationLink: { free: 5, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
  newPasswordAddress: { free: 10, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
  twoFactor: { free: 5, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE },
} satisfies Record<string, ThrottlePolicy>;

export type ThrottleKind = keyof typeof THROTTLE_POLICIES;

/** How long the `failures`-th failure in a row makes the subject wait (0 while still free). */
export function waitAfter(failures: number, { free, firstWaitMs, maxWaitMs }: ThrottlePolicy): number {
  if (failures <= free) return 0;
  return Math.min(maxWaitMs, firstWaitMs * 2 ** Math.min(failures - free - 1, 40));
}

/** A throttle subject: its kind and a digest of what it names (no email or address is stored). */
export const subject = (kind: ThrottleKind, name: string): string =>
  `${kind}:${createHash('sha256').update(name).digest('base64url')}`;

export interface SignInThrottle {
  /** Seconds the subject must still wait, or 0. */
  waitSeconds(kind: ThrottleKind, name: string): Promise<number>;
  failed(kind: ThrottleKind, name: string): Promise<void>;
  succeeded(kind: ThrottleKind, name: string): Promise<void>;
}

export function createSignInThrottle(accounts: AccountRepository, clock: Clock): SignInThrottle {
  return {
    async waitSeconds(kind, name) {
      const state = await accounts.throttle(subject(kind, name));
      const left = (state?.blockedUntil ?? 0) - clock.now();
      return left > 0 ? Math.ceil(left / SECOND) : 0;
    },
    async failed(kind, name) {
      const now = clock.now();
      await accounts.recordFailure(
        subject(kind, name),
        now,
        now - FORGET_FAILURES_AFTER_MS,
        (failures) => now + waitAfter(failures, THROTTLE_POLICIES[kind]),
      );
    },
    succeeded: (kind, name) => accounts.clearThrottle(subject(kind, name)),
  };
}
