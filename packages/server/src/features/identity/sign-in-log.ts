import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { PasswordChangeOutcome } from './password-change.ts';
import type { SignInOutcome } from './sessions.ts';

/**
 * One JSON log line per sign-in success, failure and throttle, and per password change or refusal of
 * one: who (the account id when the email is an account's, and a digest of the email as typed, never
 * the email or the password), from where (the client address, the device's standing) and why. The
 * request line of the same request carries the same request id.
 */
const EVENTS = {
  signed_in: 'sign_in.succeeded',
  two_factor: 'sign_in.password_accepted',
  refused: 'sign_in.failed',
  throttled: 'sign_in.throttled',
} as const;

/** The first 16 hex digits of the email's SHA-256: enough to tell attempts apart, no address in logs. */
export const emailDigest = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16);

export function logSignIn(request: FastifyRequest, email: string, outcome: SignInOutcome): void {
  const line = {
    event: EVENTS[outcome.kind],
    accountId: outcome.account?.id ?? null,
    emailDigest: emailDigest(email),
    address: request.ip,
    device: outcome.device,
    ...(outcome.kind === 'throttled'
      ? { reason: outcome.reason, retryAfterSeconds: outcome.retryAfterSeconds }
      : {}),
  };
  if (outcome.kind === 'signed_in') request.log.info(line, 'sign-in succeeded');
  else if (outcome.kind === 'two_factor') request.log.info(line, 'sign-in password accepted, code next');
  else request.log.warn(line, outcome.kind === 'refused' ? 'sign-in failed' : 'sign-in throttled');
}

const CHANGE_EVENTS = {
  changed: 'password.changed',
  wrong_password: 'password.change_failed',
  refused: 'password.change_refused',
  throttled: 'password.change_throttled',
} as const;

export function logPasswordChange(
  request: FastifyRequest,
  accountId: string,
  outcome: PasswordChangeOutcome,
): void {
  const line = {
    event: CHANGE_EVENTS[outcome.kind],
    accountId,
    address: request.ip,
    ...(outcome.kind === 'changed'
      ? { endedSessions: outcome.endedSessions, revokedTokens: outcome.revoked.length }
      : {}),
    ...(outcome.kind === 'throttled' ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
  };
  if (outcome.kind === 'changed') request.log.info(line, 'password changed');
  else request.log.warn(line, 'password change refused');
}
