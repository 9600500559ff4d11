import { requestJson } from './json.ts';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RequestLogQuery, RequestLogRecords, StoredRequest } from './request-log-records.ts';

/**
 * Rows read from the request log at a time while exporting (a full batch of the log): an export of any
 * length holds one page in memory, and each page is read, encoded and written in one turn of the event
 * loop of a few milliseconds. 500 rows a page doubled the other tenants' worst wait beside a 1M-row
 * export for no more rows a second (docs/benchmarks-history.md, "Exports before and after reading page
 * by page").
 */
export const EXPORT_PAGE_ROWS = 256;

/**
 * A query's requests, newest first, a page at a time until the last: what every export reads. The event
 * loop is given back before each page after the first, so other requests (and on SQLite, the
 * connection's other turns) run between pages: each page is its own short read, no statement or
 * transaction stays open across pages.
 */
export async function* requestPagesOf(
  records: Pick<RequestLogRecords, 'pages'>,
  query: Omit<RequestLogQuery, 'limit' | 'before'>,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<StoredRequest[]> {
  let first = true;
  for await (const page of records.pages(query, pageRows)) {
    if (!first) await nextTurn();
    first = false;
    yield page;
  }
}

/**
 * The columns of an export, in order: the CSV header and the NDJSON objects' keys, named as the
 * management API names a logged request's fields (`LoggedRequest`), `count` included (a row standing
 * for several refusals counts them all: every total of an export agrees with the charts).
 */
export const EXPORT_COLUMNS = [
  'id',
  'at',
  'requestId',
  'keyId',
  'keyLabel',
  'operation',
  'method',
  'path',
  'status',
  'code',
  'message',
  'count',
  'latencyMs',
  'address',
] as const;

type Exported = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

/** A row as the management API shows it (requestJson), its fields in EXPORT_COLUMNS' order. */
const exported: (row: StoredRequest) => Exported = requestJson;

/**
 * A CSV cell: quoted when it holds a comma, a quote or a line break. A text starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return would be read as a formula by a spreadsheet (CSV injection): it is
 * prefixed with `'`, which the spreadsheet shows as text. Numbers are written as they are.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV (RFC 4180, CRLF line ends), the header first, then a chunk per page. */
export async function* requestsCsv(pages: AsyncIterable<StoredRequest[]>): AsyncGenerator<string> {
  yield `${EXPORT_COLUMNS.join(',')}\r\n`;
  for await (const page of pages) {
    yield page.map((row) => `${Object.values(exported(row)).map(csvCell).join(',')}\r\n`).join('');
  }
}

/** NDJSON: one JSON object a line, a chunk per page. */
export async function* requestsNdjson(pages: AsyncIterable<StoredRequest[]>): AsyncGenerator<string> {
  for await (const page of pages) {
    yield page.map((row) => `${JSON.stringify(exported(row))}\n`).join('');
  }
}

/** The export formats: their media type and how their lines are written. */
export const EXPORT_FORMATS = {
  csv: { type: 'text/csv; charset=utf-8', lines: requestsCsv },
  ndjson: { type: 'application/x-ndjson; charset=utf-8', lines: requestsNdjson },
} as const;

/**
 * An export's response body, a chunk per page. No page is read before the client has taken the last
 * one: the body buffers one chunk, and the response's backpressure (a `write` that returns false)
 * pauses it until the socket drains; a client gone destroys the body, which ends the reads. `ended` is
 * called once, however the body ends (finished, failed or destroyed): an export's slot is freed there.
 */
export function exportBody(chunks: AsyncIterable<string>, ended: () => void): Readable {
  const body = Readable.from(chunks, { objectMode: true, highWaterMark: 1 });
  body.once('close', ended);
  return body;
}
