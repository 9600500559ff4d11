import { createRequestService } from '@petstore/server/features/requests/service.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { openServerDatabase } from './database.ts';
import { EXIT, NotFoundError, refusalError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { formatTable } from './table.ts';
import { parseCommand, stringOption, UsageError } from './usage.ts';

const HELP = `petstore usage --project <slug> [--period hour|day] [--key ID] [--json]

  The project's requests per period, oldest first: the last 24 hours (--period hour, the default) or
  30 days (--period day), optionally of one key: total, successes, client errors (429 apart),
  refusals (429), server errors, and the 50th and 99th percentile latency. With --json, the
  management API's Usage object: {period, data: [{start, total, ok, clientErrors, rateLimited,
  serverErrors, p50Ms, p99Ms}]}.

${MODE_HELP}`;

const OPTIONS = {
  project: { type: 'string' },
  period: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  ...MODE_OPTIONS,
} as const;

interface UsageRow {
  start: string;
  total: number;
  ok: number;
  clientErrors: number;
  rateLimited: number;
  serverErrors: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

type Counted = { start: string | number } & Record<
  'total' | 'ok' | 'clientErrors' | 'rateLimited' | 'serverErrors',
  number | bigint
> & { p50Ms: number | null; p99Ms: number | null };

const rowOf = (period: Counted): UsageRow => ({
  start: typeof period.start === 'number' ? new Date(period.start).toISOString() : period.start,
  total: Number(period.total),
  ok: Number(period.ok),
  clientErrors: Number(period.clientErrors),
  rateLimited: Number(period.rateLimited),
  serverErrors: Number(period.serverErrors),
  p50Ms: period.p50Ms,
  p99Ms: period.p99Ms,
});

function print(io: CliIo, period: string, rows: UsageRow[], json: boolean): void {
  if (json) {
    say(io, JSON.stringify({ period, data: rows }));
    return;
  }
  const ms = (value: number | null) => (value === null ? '-' : String(value));
  const columns = ['START', 'TOTAL', 'OK', '4XX', '429', '5XX', 'P50 MS', 'P99 MS'].map((title, index) => ({
    title,
    align: index === 0 ? ('left' as const) : ('right' as const),
  }));
  say(
    io,
    formatTable(
      columns,
      rows.map((row) => [
        row.start,
        String(row.total),
        String(row.ok),
        String(row.clientErrors),
        String(row.rateLimited),
        String(row.serverErrors),
        ms(row.p50Ms),
        ms(row.p99Ms),
      ]),
    ),
  );
}

export async function runUsage(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'usage', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('usage takes no arguments; run "petstore usage --help"');
  const slug = stringOption(parsed, 'project');
  if (!slug) throw new UsageError('usage needs --project <slug>');
  const period = stringOption(parsed, 'period') ?? 'hour';
  if (period !== 'hour' && period !== 'day') {
    throw new UsageError(`--period must be hour or day, got ${JSON.stringify(period)}`);
  }
  const key = stringOption(parsed, 'key');
  const json = parsed.values.json === true;
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    const { data } = await mode.api.run((client) =>
      client.get('/projects/{slug}/usage', { path: { slug }, query: { period, key } }),
    );
    print(io, period, data.data.map(rowOf), json);
    return EXIT.ok;
  }
  const { storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    const outcome = await createRequestService({ storage, clock: systemClock }).usage(
      OPERATOR,
      slug,
      period,
      key,
    );
    if (!outcome.ok) {
      throw outcome.problem.code === 'not_found'
        ? new NotFoundError(`no project "${slug}"; see "petstore projects list"`)
        : refusalError(outcome.problem);
    }
    print(io, period, outcome.value.map(rowOf), json);
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
