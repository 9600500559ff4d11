import { createHash, randomBytes } from 'node:crypto';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { Account, AccountRepository, Session } from '../storage/account-repository.ts';
import type { Clock } from '../time/clock.ts';
import { normalizeEmail } from './email.ts';
import { createHashingGate, type HashingGate } from './hashing-gate.ts';
import { decoyHash, hashPassword, PASSWORD_PARAMS, type ScryptParams, verifyPassword } from './passwords.ts';

/** A session lasts a week from sign-in; signing out or removing the account ends it at once. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Sign-in attempts allowed per client address and per email address (whoever tries, from wherever):
 * enough for a person who mistypes, far too few to guess a password. Counted in the rate limiter's
 * store, so the limits hold across instances when Redis is configured.
 */
export const SIGN_IN_LIMITS = {
  perAddress: { perMinute: 10, perDay: 200 },
  perEmail: { perMinute: 5, perDay: 50 },
};

export type SignInOutcome =
  | { kind: 'signed_in'; token: string; session: Session; account: Account }
  /** Unknown email and wrong password are the same answer. */
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export interface Sessions {
  signIn(email: string, password: string, clientAddress: string): Promise<SignInOutcome>;
  /** The session a cookie token stands for, read from the database (sign-out elsewhere counts at once). */
  current(token: string): Promise<{ session: Session; account: Account } | undefined>;
  signOut(token: string): Promise<void>;
}

export interface SessionDeps {
  accounts: AccountRepository;
  limiter: RateLimiter;
  clock: Clock;
  passwordParams?: ScryptParams;
  /** Bounds the password checks in flight (default: `HASHING_LIMITS`). */
  hashingGate?: HashingGate;
}

/** What a sign-in answers when the password checks' queue is full. */
const BUSY_RETRY_SECONDS = 1;

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

export function createSessions(deps: SessionDeps): Sessions {
  const { accounts, limiter, clock } = deps;
  const params = deps.passwordParams ?? PASSWORD_PARAMS;
  const gate = deps.hashingGate ?? createHashingGate();
  // Unknown emails are checked against this hash, so they take as long as a wrong password.
  const decoy = decoyHash(params);

  const throttled = async (clientAddress: string, email: string) => {
    const checks = await Promise.all([
      limiter.check({ bucket: `sign-in:address:${clientAddress}`, ...SIGN_IN_LIMITS.perAddress }),
      limiter.check({ bucket: `sign-in:email:${digest(email)}`, ...SIGN_IN_LIMITS.perEmail }),
    ]);
    const refused = checks.filter((decision) => !decision.allowed);
    return refused.length === 0 ? undefined : Math.max(...refused.map((d) => d.retryAfterSeconds ?? 1));
  };

  return {
    async signIn(emailText, password, clientAddress) {
      const email = normalizeEmail(emailText) ?? emailText.trim().toLowerCase();
      const retryAfterSeconds = await throttled(clientAddress, email);
      if (retryAfterSeconds !== undefined) return { kind: 'throttled', retryAfterSeconds };
      const account = await accounts.byEmail(email);
      const checking = gate.run(async () => {
        const check = await verifyPassword(password, account?.passwordHash ?? decoy, params);
        if (account && check.rehash) {
          await accounts.setPasswordHash(account.id, await hashPassword(password, params));
        }
        return check.ok;
      });
      if (!checking) return { kind: 'throttled', retryAfterSeconds: BUSY_RETRY_SECONDS };
      // Awaited whether or not the account exists: an unknown email must take as long as a wrong password.
      const matches = await checking;
      if (!account || !matches) return { kind: 'refused' };
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const session: Session = {
        idDigest: digest(token),
        accountId: account.id,
        csrfToken: randomBytes(32).toString('base64url'),
        createdAt: now,
        expiresAt: now + SESSION_TTL_MS,
      };
      await accounts.createSession(session);
      return { kind: 'signed_in', token, session, account };
    },
    current: (token) => accounts.findSession(digest(token), clock.now()),
    signOut: (token) => accounts.removeSession(digest(token)),
  };
}
