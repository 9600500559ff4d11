import { parseStatusFilter, type RequestLogQuery, retainedSince } from '@petstore/server/operator';
import { openServerDatabase } from './database.ts';
import { sinceOption } from './since-option.ts';
import { CliError, EXIT } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { formatTable } from './table.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore logs --project <slug> [--key ID] [--status 2xx|4xx|429|5xx|NNN] [--since 1h|1d|ISO]
              [--limit N] [--json]

  The API requests made with the project's keys, newest first (at most --limit, default 100, up to
  1000), within what the project's plan keeps (Free 1 day, Pro 7, Business and Enterprise 30).
  --status 4xx leaves 429 out (--status 429 lists those), as the dashboard's charts count them. --since
  takes 30m, 1h, 7d or an ISO 8601 instant. With --json, an array of {time, requestId, keyId, keyLabel,
  operation, method, path, status, code, latencyMs, address, count, message}: count is 1 but for a key's
  refusals (429) within one second, kept as one row with their number; message is the Error body's the
  client received, null for a success.
  --database URL   the server's database (DATABASE_URL, default ./data/petstore.db).`;

const OPTIONS = {
  project: { type: 'string' },
  key: { type: 'string' },
  status: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
} as const;

export async function runLogs(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'logs', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('logs takes no arguments; run "petstore logs --help"');
  const slug = stringOption(parsed, 'project');
  if (!slug) throw new UsageError('logs needs --project <slug>');
  const now = Date.now();
  const statusText = stringOption(parsed, 'status');
  const status = statusText === undefined ? undefined : parseStatusFilter(statusText);
  if (statusText !== undefined && status === undefined) {
    throw new UsageError(
      `--status must be 2xx, 4xx, 429, 5xx or a status code, got ${JSON.stringify(statusText)}`,
    );
  }
  const since = sinceOption(parsed, now);
  const limit = positiveInteger('limit', stringOption(parsed, 'limit'), 1_000) ?? 100;
  const flag = stringOption(parsed, 'database');
  const { storage } = await openServerDatabase(io, flag);
  try {
    const project = await storage.projects.bySlug(slug);
    if (!project) throw new CliError(`no project "${slug}"; see "petstore projects list"`, EXIT.notFound);
    const query: RequestLogQuery = {
      projectId: project.id,
      since: Math.max(since ?? 0, retainedSince(project.plan, now)),
      limit,
      keyId: stringOption(parsed, 'key'),
      status,
    };
    // A key's refusals of one second are one row: `count` says how many requests it stands for.
    const rows = (await storage.requestLog.list(query)).map(({ id: _id, projectId: _p, at, ...row }) => ({
      time: new Date(at).toISOString(),
      ...row,
      count: row.count ?? 1,
    }));
    if (parsed.values.json === true) say(io, JSON.stringify(rows));
    else if (rows.length === 0) say(io, 'no requests match');
    else {
      const columns = ['TIME', 'STATUS', 'CODE', 'METHOD', 'PATH', 'KEY', 'MS', 'REQUEST ID'].map(
        (title) => ({
          title,
          align: title === 'MS' ? ('right' as const) : undefined,
        }),
      );
      const cells = rows.map((row) => [
        row.time,
        String(row.status),
        `${row.code ?? '-'}${row.count > 1 ? ` ×${row.count}` : ''}`,
        row.method,
        row.path,
        row.keyLabel ?? row.keyId,
        row.latencyMs.toFixed(1),
        row.requestId,
      ]);
      say(io, formatTable(columns, cells));
    }
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
