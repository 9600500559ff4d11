import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * TOTP secrets at rest. A TOTP secret cannot be a digest (the server computes codes from it), so it is
 * sealed with AES-256-GCM, the account id bound in as additional data (a sealed secret copied onto
 * another account does not open). The key is the operator's PETSTORE_TWO_FACTOR_KEY when set, kept
 * outside the database, so a copy of the database (a backup, a dump, a read-only SQL injection) holds
 * no usable secret; without it, a key the service makes on first use and keeps in `server_secrets`,
 * which protects only against a copy of the one table. docs/accounts.md says which to choose.
 */
export interface SecretBox {
  seal(accountId: string, secret: string): Promise<string>;
  /** The secret, or undefined when it does not open (another key, another account, altered). */
  open(accountId: string, sealed: string): Promise<string | undefined>;
}

const VERSION = 'v1';

export function createSecretBox(key: () => Promise<Buffer>): SecretBox {
  return {
    async seal(accountId, secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await key(), iv);
      cipher.setAAD(Buffer.from(accountId));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    async open(accountId, sealed) {
      const [version, payload] = sealed.split('.');
      if (version !== VERSION || payload === undefined) return undefined;
      try {
        const bytes = Buffer.from(payload, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', await key(), bytes.subarray(0, 12));
        decipher.setAAD(Buffer.from(accountId));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
