import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software authenticator for in-process tests: an ES256 key pair per credential, answering the
 * server's options as a browser's WebAuthn API would (attestation "none"), so the server's checks run
 * on real signatures. The browser tests use Chromium's virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentials = new Map<
    string,
    { key: KeyObject; x: Buffer; y: Buffer; userHandle: string; count: number }
  >();
  /** Whether it says it verified its user (a PIN, a fingerprint). */
  userVerified = true;
  /** The signature count it reports; counterless authenticators (most synced passkeys) report 0. */
  counting = false;

  readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  private authData(rpId: string, flags: number, count: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(count);
    const rpIdHash = createHash('sha256').update(rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), counter, attested ?? Buffer.alloc(0)]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }

  /** Answers registration options (navigator.credentials.create): the credential's JSON. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin?: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x!, 'base64url');
    const y = Buffer.from(jwk.y!, 'base64url');
    const id = randomBytes(16);
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(x)],
        [-3, new Uint8Array(y)],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    const flags = 0x01 | (this.userVerified ? 0x04 : 0) | 0x40;
    const authData = this.authData(options.rp.id!, flags, 0, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, number>>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const credentialId = id.toString('base64url');
    this.credentials.set(credentialId, { key: privateKey, x, y, userHandle: options.user.id, count: 0 });
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, origin),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * Answers sign-in options (navigator.credentials.get) with `credentialId`, or the first credential
   * it holds that the options allow: the assertion's JSON.
   */
  get(
    options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] },
    credentialId?: string,
    origin?: string,
  ) {
    const allowed = options.allowCredentials?.map((credential) => credential.id) ?? [];
    const id =
      credentialId ??
      [...this.credentials.keys()].find((key) => allowed.length === 0 || allowed.includes(key));
    const credential = this.credentials.get(id!);
    if (!credential) throw new Error('no credential of this authenticator is allowed');
    if (this.counting) credential.count++;
    const flags = 0x01 | (this.userVerified ? 0x04 : 0);
    const authData = this.authData(options.rpId!, flags, this.counting ? credential.count : 0);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const signed = Buffer.concat([
      authData,
      createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest(),
    ]);
    return {
      id: id!,
      rawId: id!,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, credential.key).toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
