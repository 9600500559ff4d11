import { compactBase, compactEncoder, type NewBatch } from './request-log-batch.ts';

/**
 * A write's batches that expire together, stored as one page: a write spread over many projects stores
 * one row of requests per expiry day, not one per project. Each batch keeps its own row (its project,
 * times, combinations: what listings find it by) with where its requests lie in the page's text. On
 * SQLite a page of one batch is not stored: the batch keeps that text in its own row (wholeText).
 * A read takes `substr(rows, 1, header_length) || substr(rows, rows_from, rows_length) || '}'` (the
 * closing brace only after a header): a whole compact batch (request-log-batch.ts) holding its project's
 * requests alone, and never decodes another project's requests.
 * - A shared page (SQLite) starts with a header, `{"v":2,"base":…,"strings":[…],"rows":`, the base and
 *   the strings of every batch in it, and each batch's part is its requests' array: the key ids, labels,
 *   operations and addresses that repeat from project to project are stored once a page. The strings of
 *   other projects are parsed with the header, never turned into a request.
 * - A page without a header (PostgreSQL, whose compression already takes the repeats out) holds each
 *   batch's own compact text.
 */
export interface NewPage {
  expiresAt: number;
  requests: number;
  /** Characters of the header; 0 when each part is a whole compact batch. */
  headerLength: number;
  /** The header, then the batches' parts one after the other. */
  rows: string;
  /** The page's batches, in the write's order, each with its part's 1-based start and length in characters. */
  parts: { batch: NewBatch; from: number; length: number }[];
}

/** Any UTF-16 unit past ASCII: where code points and UTF-16 units may differ. */
const BEYOND_ASCII = /\P{ASCII}/u;

/** Characters as SQL's substr and length count them: code points, not UTF-16 units. */
export const codePoints = (text: string): number =>
  BEYOND_ASCII.test(text) ? [...text].length : text.length;

/** One page of batches: with a shared header, or of the batches' own texts (`encoded.rows`). */
function pageOf(expiresAt: number, batches: readonly NewBatch[], shared: boolean): NewPage {
  let header = '';
  let texts: string[];
  if (shared) {
    const base = compactBase(batches.map((batch) => batch.slots));
    const { strings, rowsOf } = compactEncoder(base);
    texts = batches.map((batch) => JSON.stringify(rowsOf(batch.slots)));
    header = `{"v":2,"base":${JSON.stringify(base)},"strings":${JSON.stringify(strings)},"rows":`;
  } else texts = batches.map((batch) => batch.encoded.rows);
  const headerLength = codePoints(header);
  let from = headerLength + 1;
  const parts = batches.map((batch, index) => {
    const length = codePoints(texts[index]!);
    const part = { batch, from, length };
    from += length;
    return part;
  });
  return {
    expiresAt,
    requests: batches.reduce((sum, batch) => sum + batch.encoded.requests, 0),
    headerLength,
    rows: header + texts.join(''),
    parts,
  };
}

/**
 * The text of a page's only batch as a read of its part gives it (header, part, closing brace): what the
 * batch stores in its own row instead of the page.
 */
export const wholeText = (page: NewPage): string => (page.headerLength > 0 ? `${page.rows}}` : page.rows);

/** The batches grouped by expiry into pages, in the order their first batch comes. */
export function pagesOf(
  batches: readonly NewBatch[],
  expiresAt: (batch: NewBatch) => number,
  shared: boolean,
): NewPage[] {
  const groups = new Map<number, NewBatch[]>();
  for (const batch of batches) {
    const expiry = expiresAt(batch);
    const group = groups.get(expiry);
    if (group) group.push(batch);
    else groups.set(expiry, [batch]);
  }
  return [...groups].map(([expiry, group]) => pageOf(expiry, group, shared));
}
