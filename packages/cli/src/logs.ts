import { createRequestService, type RequestFilters } from '@petstore/server/features/requests/service.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { parseStatusFilter } from '@petstore/server/features/requests/filters.ts';
import { requestJson } from '@petstore/server/features/requests/json.ts';
import type { StoredRequest } from '@petstore/server/features/requests/request-log-records.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import type { ManageComponents } from './api-client.ts';
import { openServerDatabase } from './database.ts';
import { sinceOption } from './since-option.ts';
import { EXIT, NotFoundError, refusalError } from './exit.ts';
import type { CliIo } from './io.ts';
import { chooseMode, type ManageApi } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import {
  cursorPager,
  jsonOutput,
  type PageOptions,
  type Pager,
  printPages,
  streamPager,
} from './paged-output.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore logs --project <slug> [--key ID] [--status 2xx|4xx|429|5xx|NNN] [--since 1h|1d|ISO]
              [--limit N] [--cursor C] [--all] [--json]

  The API requests made with the project's keys, newest first, within what the project's plan keeps
  (Free 1 day, Pro 7, Business and Enterprise 30): one page of --limit (default 100, up to 1000), the
  next page's --cursor on stderr; --all prints every matching request, in constant memory.
  --status 4xx leaves 429 out (--status 429 lists those), as the dashboard's charts count them. --since
  takes 30m, 1h, 7d or an ISO 8601 instant. With --json, in either mode, an array of the management API's
  LoggedRequest objects {id, at, requestId, keyId, keyLabel, operation, method, path, status, code,
  message, count, latencyMs, address}; with --ndjson the same objects one a line, for tools that read
  a line at a time ("logs --all --ndjson > requests.ndjson" is the export). A key's refusals (429)
  within one second are kept as one row, with their number in count (×N in the table).

  Through the management API, --all streams its NDJSON export.

${MODE_HELP}`;

const OPTIONS = {
  project: { type: 'string' },
  key: { type: 'string' },
  status: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  ndjson: { type: 'boolean' },
  ...MODE_OPTIONS,
} as const;

/** The management API's largest page of requests. */
const API_PAGE = 200;

/** A request as `logs` reads it, in both modes: the management API's LoggedRequest (what --json prints). */
type LogRow = ManageComponents['schemas']['LoggedRequest'];

const storedRow = (row: StoredRequest): LogRow => requestJson(row);

function databasePager(storage: Store, slug: string, filters: RequestFilters, all: boolean): Pager<LogRow> {
  const requests = createRequestService({ storage, clock: systemClock });
  const refused = (problem: { code: string; message: string }) =>
    problem.code === 'not_found'
      ? new NotFoundError(`no project "${slug}"; see "petstore projects list"`)
      : refusalError(problem);
  if (all) {
    let stream: Pager<LogRow> | undefined;
    return async (cursor, limit) => {
      if (!stream) {
        const found = await requests.export(OPERATOR, slug, filters);
        if (!found.ok) throw refused(found.problem);
        stream = streamPager(mapStream(rowsOf(found.value.pages), storedRow));
      }
      return stream(cursor, limit);
    };
  }
  return async (cursor, limit) => {
    const page = await requests.list(OPERATOR, slug, { ...filters, cursor, limit });
    if (!page.ok) throw refused(page.problem);
    return { items: page.value.data.map(storedRow), next: page.value.next ?? undefined };
  };
}

async function* rowsOf<T>(pages: AsyncIterable<T[]>): AsyncIterable<T> {
  for await (const page of pages) yield* page;
}

async function* mapStream<T, U>(stream: AsyncIterable<T>, map: (item: T) => U): AsyncIterable<U> {
  for await (const item of stream) yield map(item);
}

function apiPager(api: ManageApi, slug: string, filters: RequestFilters, all: boolean): Pager<LogRow> {
  const query = {
    key: filters.key,
    status: filters.status,
    since: filters.since === undefined ? undefined : new Date(filters.since).toISOString(),
  };
  if (all) {
    // One request streams every row (NDJSON); errors come from its first read.
    const rows = api.client.ndjson('/projects/{slug}/requests', { path: { slug }, query });
    const pager = streamPager(rows);
    return (cursor, limit) => api.run(() => pager(cursor, limit));
  }
  return cursorPager(API_PAGE, async (cursor, limit) => {
    const { data } = await api.run((client) =>
      client.get('/projects/{slug}/requests', { path: { slug }, query: { ...query, limit, cursor } }),
    );
    return data;
  });
}

function print(io: CliIo, slug: string, pager: Pager<LogRow>, options: PageOptions): Promise<void> {
  return printPages<LogRow>(
    io,
    {
      command: `petstore logs --project ${slug}`,
      pager,
      columns: ['TIME', 'STATUS', 'CODE', 'METHOD', 'PATH', 'KEY', 'MS', 'REQUEST ID'].map((title) => ({
        title,
        align: title === 'MS' ? ('right' as const) : undefined,
      })),
      row: (row) => [
        row.at,
        String(row.status),
        `${row.code ?? '-'}${row.count > 1 ? ` ×${row.count}` : ''}`,
        row.method,
        row.path,
        row.keyLabel ?? row.keyId,
        row.latencyMs.toFixed(1),
        row.requestId,
      ],
      record: (row) => JSON.stringify(row),
      empty: 'no requests match',
    },
    options,
  );
}

export async function runLogs(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'logs', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('logs takes no arguments; run "petstore logs --help"');
  const slug = stringOption(parsed, 'project');
  if (!slug) throw new UsageError('logs needs --project <slug>');
  const status = stringOption(parsed, 'status');
  if (status !== undefined && parseStatusFilter(status) === undefined) {
    throw new UsageError(
      `--status must be 2xx, 4xx, 429, 5xx or a status code, got ${JSON.stringify(status)}`,
    );
  }
  const filters: RequestFilters = {
    key: stringOption(parsed, 'key'),
    status,
    since: sinceOption(parsed, Date.now()),
  };
  const options: PageOptions = {
    ...jsonOutput(parsed.values),
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), 1_000),
    cursor: stringOption(parsed, 'cursor'),
    all: parsed.values.all === true,
  };
  // --all from a cursor pages on from it; from the start it reads one stream of every row.
  const stream = options.all && options.cursor === undefined;
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    await print(io, slug, apiPager(mode.api, slug, filters, stream), options);
    return EXIT.ok;
  }
  const { storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    await print(io, slug, databasePager(storage, slug, filters, stream), options);
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
