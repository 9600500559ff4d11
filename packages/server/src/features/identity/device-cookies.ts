import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser that
 * signed in to an account keeps a cookie naming the account, when it was issued and a random nonce,
 * signed with HMAC-SHA256 under a secret only the service knows. A sign-in that shows a valid one for
 * the account it tries is from a known device: failures elsewhere never throttle it.
 */
export interface Device {
  accountId: string;
  /** When the cookie was issued (epoch ms): older than the account's devicesValidAfter is unknown. */
  issuedAt: number;
  /** Names the device in the throttles (its own failures lock out only itself). */
  nonce: string;
}

export interface DeviceCookies {
  issue(accountId: string, now: number): Promise<string>;
  /** The device a cookie value stands for, or undefined when it is malformed or not signed by us. */
  verify(value: string | undefined): Promise<Device | undefined>;
}

const VERSION = 'v1';
const VALUE = /^v1\.(acc_[A-Za-z0-9_-]{1,64})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** `secret` is asked once, on first use (it is read from the database). */
export function createDeviceCookies(secret: () => Promise<Buffer>): DeviceCookies {
  let key: Promise<Buffer> | undefined;
  const sign = async (text: string) => {
    key ??= secret();
    key.catch(() => (key = undefined));
    return createHmac('sha256', await key)
      .update(text)
      .digest();
  };
  return {
    async issue(accountId, now) {
      const body = `${VERSION}.${accountId}.${now.toString(36)}.${randomBytes(16).toString('base64url')}`;
      return `${body}.${(await sign(body)).toString('base64url')}`;
    },
    async verify(value) {
      const match = value === undefined ? null : VALUE.exec(value);
      if (!match) return undefined;
      const body = value!.slice(0, value!.lastIndexOf('.'));
      const expected = await sign(body);
      const given = Buffer.from(match[4]!, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return { accountId: match[1]!, issuedAt: parseInt(match[2]!, 36), nonce: match[3]! };
    },
  };
}
