import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AccountRepository } from './account-repository.ts';
import type { Clock } from '../../time/clock.ts';
import { sessionToken, signedInOf } from './session-cookie.ts';

/**
 * What a page shows once after a form redirected to it (post/redirect/get): a new key's secret, a
 * notice, a refused form's problem and what was typed. It is held server-side for the session and the
 * page it is for, never in a URL, encrypted (AES-256-GCM) under a key derived from the session's cookie
 * token, which the database never sees: the stored row alone reveals nothing. Read once, then gone;
 * unread ones expire after FLASH_TTL_MS or with their session.
 */
export interface Flash {
  /** A success, shown as a status message. */
  notice?: string;
  /** Why the form was refused, shown as an alert beside it. */
  problem?: string;
  /** What was typed into the refused form (never a password). */
  values?: Record<string, string>;
  /** A new API key: its secret is shown this once. */
  key?: { id: string; secret: string; label: string | null; prefix: string; createdAt: number };
  /** Two-factor sign-in was just turned on: its recovery codes are shown this once. */
  recoveryCodes?: string[];
  /** The recovery codes shown are new ones replacing the old (not a fresh set-up). */
  recoveryCodesRenewed?: boolean;
  /** The project whose requirement sent the person to set two-factor up: linked to once it is on. */
  backTo?: { slug: string; name: string };
  /** Why turning two-factor sign-in off was refused (shown beside its form, not the password's). */
  twoFactorProblem?: string;
  /** Why adding or removing a passkey was refused (shown beside the passkeys). */
  passkeyProblem?: string;
  /** A new access token of the management API: its secret is shown this once. */
  accessToken?: { secret: string; name: string; prefix: string };
}

export const FLASH_TTL_MS = 10 * 60_000;

const keyOf = (token: string) => createHmac('sha256', token).update('petstore flash v1').digest();

function seal(token: string, flash: Flash): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(token), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(flash), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function open(token: string, sealed: string): Flash | undefined {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(token), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return JSON.parse(
      Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'),
    );
  } catch {
    return undefined;
  }
}

export interface Flashes {
  /** Keeps `flash` for the signed-in session's next view of `page` (a dashboard path). */
  put(request: FastifyRequest, page: string, flash: Flash): Promise<void>;
  /** The flash for this page, if any: deleted as it is read. */
  take(request: FastifyRequest, page: string): Promise<Flash>;
}

export function createFlashes(accounts: AccountRepository, clock: Clock): Flashes {
  return {
    async put(request, page, flash) {
      const token = sessionToken(request)!;
      const digest = signedInOf(request).session.idDigest;
      await accounts.putFlash(digest, page, seal(token, flash), clock.now() + FLASH_TTL_MS);
    },
    async take(request, page) {
      const token = sessionToken(request);
      if (!token || !request.signedIn) return {};
      const sealed = await accounts.takeFlash(request.signedIn.session.idDigest, page, clock.now());
      return (sealed && open(token, sealed)) || {};
    },
  };
}
