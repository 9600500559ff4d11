import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AccountRepository } from './account-repository.ts';
import type { Passkey, PasskeyPurpose } from './passkey-records.ts';
import type { Clock } from '../../time/clock.ts';
import type { IdentityChanges } from './identity-changes.ts';
import { newRecoveryCodes, type SelfActor } from './two-factor.ts';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: registered from the account page, then used
 * instead of a TOTP code after the password, or alone ("Sign in with a passkey", a discoverable
 * credential with user verification). Each ceremony answers a challenge the server made: single-use
 * (taken by a DELETE), 5 minutes, at most PASSKEY_CHALLENGES_PER_BINDING per session or sign-in form.
 */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
export const PASSKEY_CHALLENGES_PER_BINDING = 5;
export const PASSKEYS_PER_ACCOUNT = 20;
export const PASSKEY_NAME_MAX = 60;
/** A credential's JSON as the browser sends it is a few hundred bytes; anything far larger is refused. */
export const PASSKEY_RESPONSE_MAX = 16_384;
const RP_NAME = 'Petstore';
/**
 * EdDSA, ES256 and RS256 (COSE ids): what authenticators make. Named here because the library's
 * default probes Node's experimental post-quantum WebCrypto, which warns on stderr at every call.
 */
const ALGORITHMS = [-8, -7, -257];

/** Who the credentials are for: the dashboard's origin (config.ts, configuredOrigin) and its host. */
export interface RelyingParty {
  origin: string;
  id: string;
}

/** `origin` as browsers write it (no default port): what the answers' client data must name. */
export function relyingPartyOf(origin: string): RelyingParty {
  const url = new URL(origin);
  return { origin: url.origin, id: url.hostname };
}

export type Registered =
  /** `recoveryCodes`: the passkey is the account's first second factor, and these are its codes (shown once). */
  { kind: 'added'; passkey: Passkey; recoveryCodes?: string[] } | { kind: 'refused'; problem: string };
export type Authenticated = { kind: 'ok'; accountId: string; passkey: Passkey } | { kind: 'refused' };

export interface PasskeyDeps {
  accounts: AccountRepository;
  clock: Clock;
  identity: IdentityChanges;
}

/** A binding as stored: the digest of the cookie or session it stands for, never the token itself. */
export const bindingOf = (kind: string, token: string): string =>
  `${kind}:${createHash('sha256').update(token).digest('base64url')}`;

/** The challenge a browser's answer carries (in its client data), without trusting anything else yet. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const data = response.response?.clientDataJSON;
  if (typeof data !== 'string') return undefined;
  try {
    const challenge = (JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown })
      .challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{43}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** The browser's JSON of a credential, parsed; undefined when it is not an object or too long. */
export function parseCredential<T>(text: string): T | undefined {
  if (text.length === 0 || text.length > PASSKEY_RESPONSE_MAX) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}

export function createPasskeys({ accounts, clock, identity }: PasskeyDeps) {
  const newChallenge = async (purpose: PasskeyPurpose, binding: string, accountId: string | null) => {
    const bytes = new Uint8Array(randomBytes(32));
    // The options carry the bytes base64url-encoded: the answer's client data holds that text.
    const challenge = Buffer.from(bytes).toString('base64url');
    const now = clock.now();
    await accounts.createPasskeyChallenge(
      { challenge, purpose, binding, accountId, createdAt: now, expiresAt: now + PASSKEY_CHALLENGE_TTL_MS },
      PASSKEY_CHALLENGES_PER_BINDING,
    );
    return bytes;
  };

  const take = (response: object, purpose: PasskeyPurpose, binding: string) => {
    const challenge = challengeOf(response as { response?: { clientDataJSON?: unknown } });
    return challenge === undefined
      ? Promise.resolve(undefined)
      : accounts.takePasskeyChallenge(challenge, purpose, binding, clock.now());
  };

  return {
    list: (accountId: string) => accounts.passkeys(accountId),

    async registrationOptions(
      account: { id: string; email: string },
      binding: string,
      rp: RelyingParty,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await accounts.passkeys(account.id);
      return generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.id,
        userName: account.email,
        userID: new Uint8Array(Buffer.from(account.id)),
        challenge: await newChallenge('register', binding, account.id),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        attestationType: 'none',
        supportedAlgorithmIDs: ALGORITHMS,
        excludeCredentials: existing.map(({ id, transports }) => ({ id, transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
    },

    /**
     * Verifies the browser's answer and stores the passkey with its audit record (one transaction).
     * When it is the account's first second factor, its recovery codes are made in that transaction.
     */
    async register(
      who: SelfActor,
      name: string,
      response: RegistrationResponseJSON,
      binding: string,
      rp: RelyingParty,
    ): Promise<Registered> {
      const label = name.trim().replace(/\s+/g, ' ');
      if (label === '' || label.length > PASSKEY_NAME_MAX || /\p{Cc}/u.test(label)) {
        return { kind: 'refused', problem: `Name the passkey (1 to ${PASSKEY_NAME_MAX} characters).` };
      }
      const taken = await take(response, 'register', binding);
      if (!taken || taken.accountId !== who.account.id) {
        return { kind: 'refused', problem: 'That passkey request expired or was used: try again.' };
      }
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response,
          expectedChallenge: taken.challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch {
        verified = undefined;
      }
      if (!verified?.verified) return { kind: 'refused', problem: 'The passkey could not be verified.' };
      const { credential } = verified.registrationInfo;
      const passkey: Passkey = {
        id: credential.id,
        accountId: who.account.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (credential.transports ?? []).filter((t) => /^[a-z-]{1,20}$/.test(t)),
        name: label,
        createdAt: clock.now(),
        lastUsedAt: null,
      };
      const fresh = newRecoveryCodes();
      const { value } = await identity.change<'full' | 'known' | 'added' | 'first'>(who, async (records) => {
        if ((await records.accounts.passkeys(who.account.id)).length >= PASSKEYS_PER_ACCOUNT) {
          return { value: 'full', action: null, target: null };
        }
        const first = !(await records.accounts.hasSecondFactor(who.account.id));
        if (!(await records.accounts.addPasskey(passkey))) {
          return { value: 'known', action: null, target: null };
        }
        if (first) await records.accounts.replaceRecoveryCodes(who.account.id, fresh.digests);
        return { value: first ? 'first' : 'added', action: 'passkey_added', target: `“${label}”` };
      });
      if (value === 'full') {
        return { kind: 'refused', problem: `An account holds ${PASSKEYS_PER_ACCOUNT} passkeys at most.` };
      }
      if (value === 'known') return { kind: 'refused', problem: 'That passkey is registered already.' };
      return value === 'first'
        ? { kind: 'added', passkey, recoveryCodes: fresh.codes }
        : { kind: 'added', passkey };
    },

    /** Options for a sign-in: any discoverable passkey, or the passkeys of `accountId` (second factor). */
    async signInOptions(
      purpose: 'sign_in' | 'second_factor',
      binding: string,
      rp: RelyingParty,
      accountId: string | null,
    ): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const allowed = accountId === null ? [] : await accounts.passkeys(accountId);
      return generateAuthenticationOptions({
        rpID: rp.id,
        challenge: await newChallenge(purpose, binding, accountId),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        allowCredentials: allowed.map(({ id, transports }) => ({ id, transports })),
        userVerification: purpose === 'sign_in' ? 'required' : 'preferred',
      });
    },

    /**
     * Checks an answer to a sign-in challenge: the passkey's signature over it, its counter, and (alone,
     * without a password) that the authenticator verified its user. The use is recorded.
     */
    async authenticate(
      purpose: 'sign_in' | 'second_factor',
      response: AuthenticationResponseJSON,
      binding: string,
      rp: RelyingParty,
    ): Promise<Authenticated> {
      const taken = await take(response, purpose, binding);
      if (!taken || typeof response.id !== 'string') return { kind: 'refused' };
      const passkey = await accounts.passkey(response.id);
      if (!passkey || (taken.accountId !== null && passkey.accountId !== taken.accountId)) {
        return { kind: 'refused' };
      }
      let verified;
      try {
        verified = await verifyAuthenticationResponse({
          response,
          expectedChallenge: taken.challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: passkey.id,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: passkey.transports,
          },
          requireUserVerification: purpose === 'sign_in',
        });
      } catch {
        verified = undefined;
      }
      if (!verified?.verified) return { kind: 'refused' };
      const used = await accounts.usePasskey(passkey.id, verified.authenticationInfo.newCounter, clock.now());
      return used ? { kind: 'ok', accountId: passkey.accountId, passkey } : { kind: 'refused' };
    },

    /**
     * Removes one of the account's passkeys with its audit record (and the recovery codes, when it was
     * the last second factor); false when it has none with this id.
     */
    async remove(who: SelfActor, id: string): Promise<boolean> {
      const { value } = await identity.change(who, async (records) => {
        const removed = await records.accounts.removePasskey(who.account.id, id);
        if (removed) await records.accounts.dropRecoveryCodesWithoutSecondFactor(who.account.id);
        return removed
          ? { value: true, action: 'passkey_removed', target: `“${removed.name}”` }
          : { value: false, action: null, target: null };
      });
      return value;
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
