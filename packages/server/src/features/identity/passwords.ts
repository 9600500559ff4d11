import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { GateTicket } from './hashing-gate.ts';
import { boundedInputs, MIN_PASSWORD_SCORE, strengthPrefix } from './password-strength.ts';
import { createStrengthPool, type StrengthPool } from './strength-pool.ts';

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
/**
 * A new password is at most 1,024 bytes of UTF-8 (1,024 ASCII characters, fewer accented letters or
 * emoji): refused beyond, before any check runs. The strength check reads only its first characters
 * (password-strength.ts), off the event loop.
 */
export const MAX_PASSWORD_BYTES = 1_024;
/**
 * A password offered at sign-in longer than this is refused without hashing: no stored password is
 * longer (the earlier limit, 1,024 characters, is at most 4,096 bytes).
 */
export const MAX_VERIFIED_PASSWORD_BYTES = 4_096;

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
  if (!match || Buffer.byteLength(password) > MAX_VERIFIED_PASSWORD_BYTES)
    return { ok: false, rehash: false };
  const stored = { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  const expected = Buffer.from(match[5]!, 'base64url');
  const key = await derive(password, Buffer.from(match[4]!, 'base64url'), stored);
  const ok = key.length === expected.length && timingSafeEqual(key, expected);
  const rehash = ok && (stored.N !== params.N || stored.r !== params.r || stored.p !== params.p);
  return { ok, rehash };
}

/** The problem passwordProblem gives when the strength checks' queue is full (a 429 where shown). */
export const PASSWORD_CHECKS_BUSY =
  'too many new passwords are being checked right now: try again in a few seconds';

let sharedPool: StrengthPool | undefined;

export interface PasswordContext {
  email?: string;
  /** Whose turn the strength check takes in the queue (default: one lane for every local check). */
  ticket?: GateTicket;
  /** Where the strength is checked (default: the process's one worker thread, started on first use). */
  strength?: Pick<StrengthPool, 'check'>;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export async function passwordProblem(
  password: string,
  context: PasswordContext = {},
): Promise<string | undefined> {
  // Counted before anything else reads it: no step below sees more than MAX_PASSWORD_BYTES.
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
    return `the password must be at most ${MAX_PASSWORD_BYTES.toLocaleString('en-US')} bytes long (as many plain letters, fewer accented ones or emoji)`;
  if (password !== '' && password.trim() === '') return 'the password must not be all whitespace';
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  // The email and its parts (`ann`, `example`) are the first guesses against an account.
  const { email } = context;
  const inputs = email ? [email, ...email.split(/[@.+_-]/)] : [];
  const pool = context.strength ?? (sharedPool ??= createStrengthPool());
  const answer = await pool.check(strengthPrefix(password), boundedInputs(inputs), context.ticket);
  if (!answer.ran) return PASSWORD_CHECKS_BUSY;
  const { score, warning } = answer.strength;
  if (score < MIN_PASSWORD_SCORE) {
    const why = warning ? ` (${warning.replace(/\.$/, '').toLowerCase()})` : '';
    return `the password is too easy to guess${why}: use a longer phrase of unrelated words`;
  }
  return undefined;
}
