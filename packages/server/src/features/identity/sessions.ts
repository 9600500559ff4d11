import { createHash, randomBytes } from 'node:crypto';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import type { Account, AccountRepository, Session } from './account-repository.ts';
import type { Clock } from '../../time/clock.ts';
import { createDeviceCookies, type Device, type DeviceCookies } from './device-cookies.ts';
import { normalizeEmail } from './email.ts';
import type { IdentityChanges } from './identity-changes.ts';
import { createHashingGate, type HashingGate } from './hashing-gate.ts';
import { decoyHash, hashPassword, PASSWORD_PARAMS, type ScryptParams, verifyPassword } from './passwords.ts';
import type { StrengthPool } from './strength-pool.ts';
import { createSignInThrottle, type SignInThrottle } from './sign-in-throttle.ts';
import { createTwoFactor, type TwoFactor } from './two-factor.ts';
import { createSecretBox } from './two-factor-secrets.ts';

/** A session lasts a week from sign-in; signing out or removing the account ends it at once. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Sign-in attempts from unknown devices allowed per client address, counted in the rate limiter's
 * store (shared by all instances with Redis): enough for a person who mistypes. There is no daily
 * cap (10 a minute, all day): failures are slowed down by the growing waits of sign-in-throttle.ts.
 */
export const SIGN_IN_LIMITS = {
  perAddress: { perMinute: 10, perDay: 14_400 },
};

/** What a sign-in answers when the password checks' queue is full. */
export const BUSY_RETRY_SECONDS = 1;

/**
 * `known`: a valid device cookie of this account; `locked`: one whose own failures took its trust
 * away for now (it signs in as an unknown device meanwhile); `unknown`: anything else.
 */
export type DeviceStanding = 'known' | 'locked' | 'unknown';

export type SignInOutcome =
  | {
      kind: 'signed_in';
      token: string;
      session: Session;
      account: Account;
      /** A new device cookie for this browser. */
      deviceCookie: string;
      device: DeviceStanding;
    }
  /** The password was right; the account's second factor comes next (no session yet). */
  | { kind: 'two_factor'; account: Account; device: DeviceStanding }
  /** Unknown email and wrong password are the same answer (`account` is for the log only). */
  | { kind: 'refused'; account?: Account; device: DeviceStanding }
  | {
      kind: 'throttled';
      retryAfterSeconds: number;
      /** Which wait applied: the email's unknown devices, the address, or the full queue. */
      reason: 'email' | 'address' | 'busy';
      account?: Account;
      device: DeviceStanding;
    };

export interface SignInContext {
  clientAddress: string;
  /** The browser's device cookie, as sent. */
  deviceCookie?: string;
}

export interface Sessions {
  signIn(email: string, password: string, context: SignInContext): Promise<SignInOutcome>;
  /** The session a cookie token stands for, read from the database (sign-out elsewhere counts at once). */
  current(token: string): Promise<{ session: Session; account: Account } | undefined>;
  signOut(token: string): Promise<void>;
  /** A session for an account whose password was just proven another way (a new account). */
  start(account: Account): Promise<{ token: string; session: Session; deviceCookie: string }>;
  devices: DeviceCookies;
  throttle: SignInThrottle;
  gate: HashingGate;
  passwordParams: ScryptParams;
  /** Where new passwords' strength is checked (undefined: the process's one worker thread). */
  strength: Pick<StrengthPool, 'check'> | undefined;
  twoFactor: TwoFactor;
}

export interface SessionDeps {
  accounts: AccountRepository;
  limiter: RateLimiter;
  clock: Clock;
  passwordParams?: ScryptParams;
  /** Where new passwords' strength is checked (default: the process's one worker thread). */
  passwordStrength?: Pick<StrengthPool, 'check'>;
  /** Bounds and orders the password checks in flight (default: `HASHING_LIMITS`). */
  hashingGate?: HashingGate;
  /** The key sealing TOTP secrets (32 bytes; default: one kept in `server_secrets`, two-factor-secrets.ts). */
  twoFactorKey?: Buffer;
  /** Where two-factor sign-in is turned on and off, each change with its record in one transaction. */
  identity: IdentityChanges;
}

export const tokenDigest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The name the device cookies' HMAC key is kept under in `server_secrets`. */
export const DEVICE_SECRET_NAME = 'device-cookie-hmac';
/** The name the TOTP secrets' key is kept under in `server_secrets` when the operator gives none. */
export const TWO_FACTOR_SECRET_NAME = 'two-factor-aes-key';

export function createSessions(deps: SessionDeps): Sessions {
  const { accounts, limiter, clock } = deps;
  const params = deps.passwordParams ?? PASSWORD_PARAMS;
  const gate = deps.hashingGate ?? createHashingGate();
  const throttle = createSignInThrottle(accounts, clock);
  const devices = createDeviceCookies(async () =>
    Buffer.from(
      await accounts.secret(DEVICE_SECRET_NAME, randomBytes(32).toString('base64url'), clock.now()),
      'base64url',
    ),
  );
  const storedKey = async () =>
    Buffer.from(
      await accounts.secret(TWO_FACTOR_SECRET_NAME, randomBytes(32).toString('base64url'), clock.now()),
      'base64url',
    );
  const twoFactorKey = deps.twoFactorKey;
  const twoFactor = createTwoFactor({
    accounts,
    clock,
    throttle,
    box: createSecretBox(twoFactorKey ? async () => twoFactorKey : storedKey),
    identity: deps.identity,
  });
  // Unknown emails are checked against this hash, so they take as long as a wrong password.
  const decoy = decoyHash(params);

  const standing = async (device: Device | undefined, account: Account | undefined) => {
    if (!device || !account || device.accountId !== account.id) return 'unknown';
    if (device.issuedAt < account.devicesValidAfter) return 'unknown';
    return (await throttle.waitSeconds('device', device.nonce)) > 0 ? 'locked' : 'known';
  };

  /** The wait an unknown device must sit out first, and why; undefined when it may try now. */
  const unknownWait = async (clientAddress: string, email: string) => {
    const perAddress = await limiter.check({
      bucket: `sign-in:address:${clientAddress}`,
      ...SIGN_IN_LIMITS.perAddress,
    });
    if (!perAddress.allowed)
      return { reason: 'address' as const, seconds: perAddress.retryAfterSeconds ?? 1 };
    const [byEmail, byAddress] = await Promise.all([
      throttle.waitSeconds('email', email),
      throttle.waitSeconds('address', clientAddress),
    ]);
    if (byEmail > 0 || byAddress > 0) {
      return {
        reason: byEmail >= byAddress ? ('email' as const) : ('address' as const),
        seconds: Math.max(byEmail, byAddress),
      };
    }
    return undefined;
  };

  const start = async (account: Account) => {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    const session: Session = {
      idDigest: tokenDigest(token),
      accountId: account.id,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: now,
      expiresAt: now + SESSION_TTL_MS,
    };
    await accounts.createSession(session);
    return { token, session, deviceCookie: await devices.issue(account.id, now) };
  };

  return {
    async signIn(emailText, password, { clientAddress, deviceCookie }) {
      const email = normalizeEmail(emailText) ?? emailText.trim().toLowerCase();
      const account = await accounts.byEmail(email);
      const device = await devices.verify(deviceCookie);
      const known = await standing(device, account);
      if (known !== 'known') {
        const wait = await unknownWait(clientAddress, email);
        if (wait)
          return {
            kind: 'throttled',
            retryAfterSeconds: wait.seconds,
            reason: wait.reason,
            account,
            device: known,
          };
      }
      const ticket =
        known === 'known'
          ? { lane: `account:${account!.id}`, priority: true }
          : { lane: `address:${clientAddress}`, priority: false };
      // Awaited whether or not the account exists: an unknown email must take as long as a wrong password.
      const checked = await gate.run(ticket, async () => {
        const check = await verifyPassword(password, account?.passwordHash ?? decoy, params);
        if (account && check.rehash) {
          await accounts.setPasswordHash(account.id, await hashPassword(password, params));
        }
        return check.ok;
      });
      if (!checked.ran) {
        return {
          kind: 'throttled',
          retryAfterSeconds: BUSY_RETRY_SECONDS,
          reason: 'busy',
          account,
          device: known,
        };
      }
      if (!account || !checked.value) {
        if (known === 'known') await throttle.failed('device', device!.nonce);
        else await Promise.all([throttle.failed('email', email), throttle.failed('address', clientAddress)]);
        return { kind: 'refused', account, device: known };
      }
      await Promise.all([
        device?.accountId === account.id ? throttle.succeeded('device', device.nonce) : undefined,
        throttle.succeeded('email', email),
      ]);
      if (await accounts.hasSecondFactor(account.id)) return { kind: 'two_factor', account, device: known };
      return { kind: 'signed_in', ...(await start(account)), account, device: known };
    },
    current: (token) => accounts.findSession(tokenDigest(token), clock.now()),
    signOut: (token) => accounts.removeSession(tokenDigest(token)),
    start,
    devices,
    throttle,
    gate,
    passwordParams: params,
    strength: deps.passwordStrength,
    twoFactor,
  };
}
