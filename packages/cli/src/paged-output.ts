import { type CliIo, note, type Output, say } from './io.ts';
import { type Column, formatTable } from './table.ts';
import { UsageError } from './usage.ts';

/** Items per page when `--limit` is not given; `--all` reads pages of this size too. */
export const PAGE_SIZE = 100;
/** The largest `--limit`. */
export const MAX_PAGE_SIZE = 10_000;

/** An opaque cursor: the JSON of `value`, base64url. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * `--cursor` decoded by `check` (which returns undefined for a value no listing printed); a cursor
 * that is not one is a usage error, before the database is opened.
 */
export function decodeCursor<Cursor>(
  command: string,
  text: string | undefined,
  check: (value: unknown) => Cursor | undefined,
): Cursor | undefined {
  if (text === undefined) return undefined;
  let cursor: Cursor | undefined;
  try {
    cursor = check(JSON.parse(Buffer.from(text, 'base64url').toString()));
  } catch {
    cursor = undefined;
  }
  if (cursor === undefined) throw new UsageError(`--cursor must be a cursor printed by "${command}"`);
  return cursor;
}

/** Resolves once `output` can take more (a pipe whose reader is slower than the database). */
function drained(output: Output, wrote: unknown): Promise<void> | undefined {
  const stream = output as Output & { once?: (event: string, listener: () => void) => void };
  if (wrote !== false || typeof stream.once !== 'function') return undefined;
  return new Promise((resolve) => stream.once!('drain', resolve));
}

/** One page of a listing: its items and, when more follow, the cursor of the next page. */
export interface ListedPage<Item> {
  items: Item[];
  next: string | undefined;
}

/** Reads at most `limit` items from `cursor` on (the first page without one). */
export type Pager<Item> = (cursor: string | undefined, limit: number) => Promise<ListedPage<Item>>;

/**
 * A pager over a database read in a listing's order: `limit + 1` rows say whether more follow, and
 * the next page's cursor is the last item's position (encodeCursor), decoded by `decode`.
 */
export function databasePager<Item, Cursor>(
  page: (after: Cursor | undefined, limit: number) => Promise<Item[]>,
  cursorOf: (item: Item) => Cursor,
  decode: (text: string | undefined) => Cursor | undefined,
): Pager<Item> {
  return async (cursor, limit) => {
    const rows = await page(decode(cursor), limit + 1);
    const more = rows.length > limit;
    const items = more ? rows.slice(0, limit) : rows;
    return { items, next: more ? encodeCursor(cursorOf(items.at(-1)!)) : undefined };
  };
}

/** `--limit`, `--cursor` and `--all` of a listing command, read before anything is opened. */
export interface PageOptions {
  limit?: number;
  cursor?: string;
  all: boolean;
  json: boolean;
  /** One JSON object a line (NDJSON) instead of an array: for exports that other tools read a line at a time. */
  ndjson?: boolean;
}

/** `--json` or `--ndjson` of a listing command that offers both; asking for both is a usage error. */
export function jsonOutput(values: { json?: unknown; ndjson?: unknown }): { json: boolean; ndjson: boolean } {
  if (values.json === true && values.ndjson === true)
    throw new UsageError('give --json or --ndjson, not both');
  return { json: values.json === true, ndjson: values.ndjson === true };
}

export interface PagedListing<Item> {
  /** The command as typed, for the next page's hint: `petstore keys list`. */
  command: string;
  pager: Pager<Item>;
  columns: Column[];
  row(item: Item): string[];
  /** One item as JSON text. */
  record(item: Item): string;
  /** Printed (without --json) when there is nothing at all. */
  empty: string;
  /** Items per page when `--limit` is not given (default PAGE_SIZE). */
  pageSize?: number;
}

/**
 * One page of a listing (a table, with --json an array, with --ndjson an object a line), and on stderr
 * the cursor of the next page when there is one; `--all` streams every page, reading the next only once the output has taken the
 * last, so memory stays the same at any size.
 */
export async function printPages<Item>(
  io: CliIo,
  listing: PagedListing<Item>,
  options: PageOptions,
): Promise<void> {
  const limit = options.limit ?? listing.pageSize ?? PAGE_SIZE;
  let cursor = options.cursor;
  let first = true;
  const write = (text: string) => drained(io.stdout, io.stdout.write(text));
  if (options.json) await write('[');
  for (;;) {
    const { items, next } = await listing.pager(cursor, limit);
    if (items.length > 0) {
      if (options.ndjson) await write(`${items.map(listing.record).join('\n')}\n`);
      else if (options.json) await write(`${first ? '' : ','}${items.map(listing.record).join(',')}`);
      else {
        const table = formatTable(listing.columns, items.map(listing.row));
        // A page after the first continues the table: its header is not repeated.
        await write(`${first ? table : table.slice(table.indexOf('\n') + 1)}\n`);
      }
      first = false;
    }
    cursor = next;
    if (next === undefined || !options.all) {
      if (options.json) say(io, ']');
      else if (first && !options.ndjson) say(io, listing.empty);
      if (next !== undefined) note(io, `more: ${listing.command} --cursor ${next} (or --all)`);
      return;
    }
  }
}

/** Writes `text` to standard output, resolving once the output can take more. */
export function writeOut(io: CliIo, text: string): Promise<void> | undefined {
  return drained(io.stdout, io.stdout.write(text));
}

/**
 * A pager over a stream read once from its start (an NDJSON export): each call takes the next `limit`
 * items. Its `next` only says that more follow, for `--all`; it is not a cursor to print.
 */
export function streamPager<Item>(stream: AsyncIterable<Item>): Pager<Item> {
  const iterator = stream[Symbol.asyncIterator]();
  let ahead: IteratorResult<Item> | undefined;
  return async (_cursor, limit) => {
    const items: Item[] = [];
    ahead ??= await iterator.next();
    while (!ahead.done && items.length < limit) {
      items.push(ahead.value);
      ahead = await iterator.next();
    }
    return { items, next: ahead.done ? undefined : 'more' };
  };
}

/**
 * A pager over an API's cursor pages of at most `maxPage` items: a longer `limit` is read in several
 * requests, so a page holds exactly `limit` items and its cursor follows the last.
 */
export function cursorPager<Item>(
  maxPage: number,
  fetchPage: (cursor: string | undefined, limit: number) => Promise<{ data: Item[]; next: string | null }>,
): Pager<Item> {
  return async (cursor, limit) => {
    const items: Item[] = [];
    let next: string | undefined = cursor;
    do {
      const page = await fetchPage(next, Math.min(maxPage, limit - items.length));
      items.push(...page.data);
      next = page.next ?? undefined;
    } while (next !== undefined && items.length < limit);
    return { items, next };
  };
}
