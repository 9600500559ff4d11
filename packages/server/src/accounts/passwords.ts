import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { MIN_PASSWORD_SCORE, passwordStrength } from './password-strength.ts';

/**
 * Passwords are hashed with scrypt from node:crypto: memory-hard, built into Node (no native add-on or
 * platform package to install), and one of OWASP's recommended functions at N=2^17, r=8, p=1 (128 MiB,
 * about 0.3 s here). The parameters travel inside each hash (`scrypt$N$r$p$salt$hash`), so they can be
 * raised later: a sign-in with older parameters rehashes the password.
 */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

export const PASSWORD_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1_024;

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, { N, r, p }: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // scrypt needs 128 · N · r bytes; allow that much and a little more.
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N, r, p, maxmem: 129 * N * r + 1_048_576 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const format = ({ N, r, p }: ScryptParams, salt: Buffer, key: Buffer): string =>
  `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;

export async function hashPassword(
  password: string,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<string> {
  const salt = randomBytes(16);
  return format(params, salt, await derive(password, salt, params));
}

/**
 * A hash that no password matches (a random key), made without hashing anything: checking a password
 * against it costs what checking a real hash with `params` costs, so an unknown email takes as long
 * as a wrong password, and nothing is computed in advance (each hash holds 128 MiB for 0.3 s).
 */
export function decoyHash(params: ScryptParams = PASSWORD_PARAMS): string {
  return format(params, randomBytes(16), randomBytes(KEY_LENGTH));
}

const HASH = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` matches; `rehash` when the hash was made with other parameters than `params`. */
export async function verifyPassword(
  password: string,
  hash: string,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<{ ok: boolean; rehash: boolean }> {
  const match = HASH.exec(hash);
  if (!match) return { ok: false, rehash: false };
  const stored = { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  const expected = Buffer.from(match[5]!, 'base64url');
  const key = await derive(password, Buffer.from(match[4]!, 'base64url'), stored);
  const ok = key.length === expected.length && timingSafeEqual(key, expected);
  const rehash = ok && (stored.N !== params.N || stored.r !== params.r || stored.p !== params.p);
  return { ok, rehash };
}

/** Why a new password is refused, or undefined when it is acceptable. */
export async function passwordProblem(
  password: string,
  context: { email?: string } = {},
): Promise<string | undefined> {
  if (password !== '' && password.trim() === '') return 'the password must not be all whitespace';
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (length > MAX_PASSWORD_LENGTH)
    return `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  // The email and its parts (`ann`, `example`) are the first guesses against an account.
  const inputs = context.email ? [context.email, ...context.email.split(/[@.+_-]/)] : [];
  const { score, warning } = await passwordStrength(password, inputs);
  if (score < MIN_PASSWORD_SCORE) {
    const why = warning ? ` (${warning.replace(/\.$/, '').toLowerCase()})` : '';
    return `the password is too easy to guess${why}: use a longer phrase of unrelated words`;
  }
  return undefined;
}
