import type { ApiKeyRecord, Storage } from '@petstore/server/operator';
import { type CliIo, note, type Output, say } from './io.ts';
import { type Column, formatInstant, formatTable } from './table.ts';
import { UsageError } from './usage.ts';

/** Keys per page when `--limit` is not given; `--all` reads pages of this size too. */
export const KEYS_PAGE = 100;

/** active, revoked, expired or banned until an instant, in that order of precedence. */
export function keyState(key: ApiKeyRecord, now: number): string {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  if (key.bannedUntil !== null && key.bannedUntil > now)
    return `banned until ${formatInstant(key.bannedUntil, '')}`;
  return 'active';
}

function planCell(key: ApiKeyRecord): string {
  return key.plan === 'enterprise' ? `enterprise ${key.perMinute}/min ${key.perDay}/day` : key.plan;
}

const COLUMNS: Column[] = [
  { title: 'ID' },
  { title: 'ENV' },
  { title: 'PLAN' },
  { title: 'LABEL' },
  { title: 'CREATED' },
  { title: 'LAST USED' },
  { title: 'EXPIRES' },
  { title: 'STATE' },
];

export interface KeysListOptions {
  json: boolean;
  /** Keys on the page (default KEYS_PAGE). */
  limit?: number;
  /** Where the page starts: the cursor the previous page printed (readKeysCursor). */
  after?: KeysCursor;
  /** Every key from the cursor on, page after page, in constant memory. */
  all: boolean;
}

export type KeysCursor = { createdAt: number; id: string };

/** The opaque cursor after a key: its creation instant and id, base64url. */
function cursorAfter(key: ApiKeyRecord): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id])).toString('base64url');
}

/** `--cursor` read, before the database is opened: a cursor keys list did not print is a usage error. */
export function readKeysCursor(cursor: string | undefined): KeysCursor | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (Number.isSafeInteger(createdAt) && typeof id === 'string' && id.length <= 100) {
      return { createdAt: createdAt as number, id };
    }
  } catch {
    // Refused below, with the same message as any other cursor that keys list did not print.
  }
  throw new UsageError('--cursor must be a cursor printed by "keys list"');
}

/** Resolves once `output` can take more (a pipe whose reader is slower than the database). */
function drained(output: Output, wrote: unknown): Promise<void> | undefined {
  const stream = output as Output & { once?: (event: string, listener: () => void) => void };
  if (wrote !== false || typeof stream.once !== 'function') return undefined;
  return new Promise((resolve) => stream.once!('drain', resolve));
}

function rowsOf(keys: ApiKeyRecord[], now: number): string[][] {
  return keys.map((key) => [
    key.id,
    key.environment,
    planCell(key),
    key.label ?? '-',
    formatInstant(key.createdAt, '-'),
    formatInstant(key.lastUsedAt, 'never'),
    formatInstant(key.expiresAt, 'never'),
    keyState(key, now),
  ]);
}

function recordsOf(keys: ApiKeyRecord[], now: number): string[] {
  return keys.map(({ digest: _digest, ...key }) =>
    JSON.stringify({ ...key, state: keyState({ ...key, digest: '' }, now) }),
  );
}

/**
 * `keys list`: one page of keys in creation order (a table, or with --json an array without digests),
 * and on stderr the cursor of the next page when there is one; `--all` streams every page, reading
 * the next only once the output took the last, so memory stays the same at any number of keys.
 */
export async function listKeys(io: CliIo, storage: Storage, options: KeysListOptions): Promise<void> {
  const limit = options.limit ?? KEYS_PAGE;
  const now = Date.now();
  let after = options.after;
  let first = true;
  const write = (text: string) => drained(io.stdout, io.stdout.write(text));
  if (options.json) await write('[');
  for (;;) {
    const page = await storage.listKeysPage({ after, limit: limit + 1 });
    const more = page.length > limit;
    const keys = more ? page.slice(0, limit) : page;
    if (options.json) {
      if (keys.length > 0) await write(`${first ? '' : ','}${recordsOf(keys, now).join(',')}`);
    } else if (keys.length > 0) {
      const table = formatTable(COLUMNS, rowsOf(keys, now));
      // A page after the first continues the table: its header is not repeated.
      await write(`${first ? table : table.slice(table.indexOf('\n') + 1)}\n`);
    }
    if (keys.length > 0) first = false;
    after = more ? { createdAt: keys.at(-1)!.createdAt, id: keys.at(-1)!.id } : undefined;
    if (!more || !options.all) {
      if (options.json) say(io, ']');
      else if (first) say(io, 'no keys; create one with: petstore keys create --plan free');
      if (more) note(io, `more keys: petstore keys list --cursor ${cursorAfter(keys.at(-1)!)} (or --all)`);
      return;
    }
  }
}
