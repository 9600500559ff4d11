import type * as Crypto from 'node:crypto';

// node:crypto is taken on first use, not imported: loading it is about a tenth of the start of a command
// that never makes or checks a key (`petstore keys list`), which imports this module through the keys
// service. Kept once taken: getBuiltinModule costs about 0.2 µs a call, a tenth of a digest.
let loaded: typeof Crypto | undefined;
const crypto = () => (loaded ??= process.getBuiltinModule('node:crypto'));

export type KeyEnvironment = 'live' | 'test';

/** `ps_live_` or `ps_test_` followed by 32 random bytes in base64url (256 bits). */
const KEY_FORMAT = /^ps_(live|test)_[A-Za-z0-9_-]{43}$/;

export interface GeneratedKey {
  /** The secret, shown once to the operator and never stored. */
  secret: string;
  /** Public identifier for listing, revoking and logs. */
  id: string;
  digest: string;
  /** `ps_test_` and the secret's first 4 characters (24 of its 256 bits): enough to tell keys apart. */
  prefix: string;
}

export function digestKey(secret: string): string {
  return crypto().createHash('sha256').update(secret).digest('hex');
}

export function generateKey(environment: KeyEnvironment): GeneratedKey {
  const secret = `ps_${environment}_${crypto().randomBytes(32).toString('base64url')}`;
  return {
    secret,
    id: `key_${crypto().randomBytes(8).toString('hex')}`,
    digest: digestKey(secret),
    prefix: secret.slice(0, `ps_${environment}_`.length + 4),
  };
}

/** The environment named by a well-formed key, or undefined for anything malformed. */
export function keyEnvironment(secret: string): KeyEnvironment | undefined {
  const match = KEY_FORMAT.exec(secret);
  return match ? (match[1] as KeyEnvironment) : undefined;
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 200) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}
