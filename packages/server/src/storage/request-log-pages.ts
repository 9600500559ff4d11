import type { NewBatch } from './request-log-batch.ts';

/**
 * A write's batches that expire together, stored as one page: a write spread over many projects stores
 * one row of requests per expiry day, not one per project. Each batch keeps its own row (its project,
 * times, combinations: what listings find it by) with where its requests lie in the page's text, a
 * whole compact batch of its project's requests alone (request-log-batch.ts): a read cuts it out with
 * substr and never decodes another project's requests.
 */
export interface NewPage {
  expiresAt: number;
  requests: number;
  /** The batches' compact texts one after the other. */
  rows: string;
  /** The page's batches, in the write's order, each with its text's 1-based start and length in characters. */
  parts: { batch: NewBatch; from: number; length: number }[];
}

/** Any UTF-16 unit past ASCII: where code points and UTF-16 units may differ. */
const BEYOND_ASCII = /\P{ASCII}/u;

/** Characters as SQL's substr and length count them: code points, not UTF-16 units. */
export const codePoints = (text: string): number =>
  BEYOND_ASCII.test(text) ? [...text].length : text.length;

/** The batches grouped by expiry, in the order their first batch comes. */
export function pagesOf(batches: readonly NewBatch[], expiresAt: (batch: NewBatch) => number): NewPage[] {
  const pages = new Map<number, NewPage & { texts: string[] }>();
  for (const batch of batches) {
    const expiry = expiresAt(batch);
    let page = pages.get(expiry);
    if (!page) pages.set(expiry, (page = { expiresAt: expiry, requests: 0, rows: '', parts: [], texts: [] }));
    const text = batch.encoded.rows;
    const last = page.parts.at(-1);
    const length = codePoints(text);
    page.parts.push({ batch, from: last ? last.from + last.length : 1, length });
    page.texts.push(text);
    page.requests += batch.encoded.requests;
  }
  return [...pages.values()].map(({ texts, ...page }) => ({ ...page, rows: texts.join('') }));
}
