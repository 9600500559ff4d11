import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { idempotentResponseRecords } from './idempotent-response-records.ts';
import type { SqlExecutor } from '../storage/sql-executor.ts';
import type { Clock } from '../time/clock.ts';
import { IDEMPOTENCY_TTL_MS, readIdempotencyKey } from './policy.ts';

/**
 * Idempotency-Key on the management API's creates that answer a secret (a key, a roll, an access
 * token), with the public API's semantics (policy.ts) and three differences: the 201 body is kept,
 * since the secret cannot be made again; it is kept sealed (AES-256-GCM, the TOTP secrets' SecretBox),
 * bound to the token, the key and the request; and it belongs to the access token that sent it, so
 * no other token, even of the same account, is ever answered with it.
 */

/** A write made in the create's own transaction, with what the create made. */
export type Alongside<V> = (sql: SqlExecutor, value: V) => Promise<void>;

export interface IdempotentRequest {
  accountId: string;
  tokenId: string;
  /** The Idempotency-Key header as sent. */
  header: string | string[] | undefined;
  /** The operation, and everything that makes its request what it is (path parameters, checked body). */
  operation: string;
  input: unknown;
}

export interface Answer {
  body: string;
  replayed: boolean;
}

/**
 * Answers `request`: without an Idempotency-Key by running the create; with one, by the kept answer
 * of the same key and request, else by running the create, its answer stored with it (`alongside`
 * in its transaction), so that the key is taken exactly when the create committed.
 */
export type IdempotentAnswers = <V>(
  request: IdempotentRequest,
  create: (alongside: Alongside<V> | undefined) => Promise<V>,
  bodyOf: (value: V) => string,
) => Promise<Answer>;

/** Seals text with additional data bound in (the TOTP secrets' SecretBox, features/identity). */
export interface AnswerBox {
  seal(bound: string, text: string): Promise<string>;
  /** The text, or undefined when it does not open (another key, other bound data, altered). */
  open(bound: string, sealed: string): Promise<string | undefined>;
}

export interface IdempotentAnswersDeps {
  /** The storage's executor, for reading kept answers outside any transaction. */
  sql: SqlExecutor;
  clock: Clock;
  /** The 32-byte key sealing the answers (sealingKey), read before a create's transaction. */
  key: () => Promise<Buffer>;
  /** The box sealing them with that key. */
  box: AnswerBox;
  ttlMs?: number;
}

/** The name of the sealing key kept in `server_secrets` when the operator gives none. */
export const ANSWERS_SECRET_NAME = 'idempotent-answers-aes-key';

/**
 * The key sealing kept answers, read once: derived (HKDF) from the operator's PETSTORE_TWO_FACTOR_KEY
 * when set, so a copy of the database opens none and the TOTP secrets never share a key with them;
 * else one the service makes on first use and keeps in `server_secrets` (docs/accounts.md).
 */
export function sealingKey(
  operatorKey: Buffer | undefined,
  secrets: { secret(name: string, candidate: string, at: number): Promise<string> },
  clock: Clock,
): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const load = async () =>
    operatorKey
      ? Buffer.from(hkdfSync('sha256', operatorKey, '', 'petstore idempotent answers', 32))
      : Buffer.from(
          await secrets.secret(ANSWERS_SECRET_NAME, randomBytes(32).toString('base64url'), clock.now()),
          'base64url',
        );
  return () =>
    (key ??= load().catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
}

/** The same request whatever the JSON's key order; integers the same whether parsed exact or not. */
function requestHash(operation: string, input: unknown): string {
  const canonical = JSON.stringify(input ?? null, (_name, value: unknown) => {
    if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : `${value}`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  return createHash('sha256').update(`${operation}\u0000${canonical}`).digest('hex');
}

/** The key was taken by a create that committed meanwhile (another instance): undoes this one. */
class AnswerTaken extends Error {}

const inProgress = () =>
  new ApiError('idempotency_in_progress', 'a request with this Idempotency-Key is still being processed', {
    param: 'Idempotency-Key',
  });

const keyReused = () =>
  new ApiError('idempotency_key_reused', 'this Idempotency-Key was used with a different request body', {
    param: 'Idempotency-Key',
  });

export function createIdempotentAnswers(deps: IdempotentAnswersDeps): IdempotentAnswers {
  const { clock } = deps;
  const ttl = deps.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const { box } = deps;
  /** Keys with a create running in this process: a concurrent duplicate gets 409. */
  const inFlight = new Set<string>();

  /** The kept answer of the token's key for this request; 422 for another request. */
  const kept = async (tokenId: string, key: string, hash: string, bound: string) => {
    const found = await idempotentResponseRecords(deps.sql).find(tokenId, key, clock.now());
    if (!found) return undefined;
    if (found.requestHash !== hash) throw keyReused();
    const body = await box.open(bound, found.sealedBody);
    if (body === undefined)
      throw new Error('a kept idempotent answer does not open: was its sealing key changed?');
    return body;
  };

  return async (request, create, bodyOf) => {
    const key = readIdempotencyKey(request.header);
    if (key === undefined) return { body: bodyOf(await create(undefined)), replayed: false };
    const { accountId, tokenId } = request;
    const hash = requestHash(request.operation, request.input);
    // Bound into the seal: a sealed body copied onto another token's, key's or request's row does not open.
    const bound = `${accountId}\u0000${tokenId}\u0000${key}\u0000${hash}`;
    const scope = `${tokenId}\u0000${key}`;
    if (inFlight.has(scope)) throw inProgress();
    inFlight.add(scope);
    try {
      // Read now: sealing inside the create's transaction then reads nothing outside it.
      await deps.key();
      const replay = await kept(tokenId, key, hash, bound);
      if (replay !== undefined) return { body: replay, replayed: true };
      let body: string | undefined;
      const alongside = async (sql: SqlExecutor, value: Parameters<typeof bodyOf>[0]) => {
        body = bodyOf(value);
        const now = clock.now();
        const sealedBody = await box.seal(bound, body);
        const stored = await idempotentResponseRecords(sql).insert({
          tokenId,
          key,
          requestHash: hash,
          sealedBody,
          createdAt: now,
          expiresAt: now + ttl,
        });
        if (!stored) throw new AnswerTaken();
      };
      try {
        const value = await create(alongside);
        return { body: body ?? bodyOf(value), replayed: false };
      } catch (error) {
        if (!(error instanceof AnswerTaken)) throw error;
        const replayLate = await kept(tokenId, key, hash, bound);
        if (replayLate === undefined) throw inProgress();
        return { body: replayLate, replayed: true };
      }
    } finally {
      inFlight.delete(scope);
    }
  };
}
