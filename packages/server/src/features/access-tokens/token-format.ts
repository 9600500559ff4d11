import { randomBytes } from 'node:crypto';
import { digestKey } from '../../auth/keys.ts';

/** `ps_at_` followed by 32 random bytes in base64url (256 bits). */
export const ACCESS_TOKEN_PREFIX = 'ps_at_';
const FORMAT = /^ps_at_[A-Za-z0-9_-]{43}$/;

export interface GeneratedToken {
  /** Shown once, never stored. */
  secret: string;
  id: string;
  /** SHA-256 of the secret, hex: what is stored and looked up. */
  digest: string;
  /** `ps_at_` and the secret's first 4 characters, to tell tokens apart. */
  prefix: string;
}

export function generateAccessToken(): GeneratedToken {
  const secret = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return {
    secret,
    id: `at_${randomBytes(8).toString('hex')}`,
    digest: digestKey(secret),
    prefix: secret.slice(0, ACCESS_TOKEN_PREFIX.length + 4),
  };
}

export const isAccessToken = (secret: string): boolean => FORMAT.test(secret);
