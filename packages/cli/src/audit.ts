import { auditEventJson } from '@petstore/server/features/audit/json.ts';
import { createAuditService } from '@petstore/server/features/audit/service.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import type { AuditEvent } from './api-client.ts';
import { openServerDatabase } from './database.ts';
import { sinceOption } from './since-option.ts';
import { EXIT, NotFoundError, refusalError } from './exit.ts';
import type { CliIo } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { cursorPager, jsonOutput, type PageOptions, type Pager, printPages } from './paged-output.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore audit --project <slug> [--since 1h|7d|ISO] [--limit N] [--cursor C] [--all]
              [--json|--ndjson]

  Who did what in the project, newest first: dashboard actions with the member's email and address
  (addresses are for owners: through a developer's or a viewer's token FROM is "-"), operator commands
  as "operator", and (on the database) members' sign-ins and password changes. One
  page of --limit (default 100, up to 1000), the next page's --cursor on stderr; --all prints every
  event, page after page, in constant memory. With --json, in either mode, an array of the management
  API's AuditEvent objects {id, at, actor, action, target, address, via}; with --ndjson the same
  objects one a line.

${MODE_HELP}`;

const OPTIONS = {
  project: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  ndjson: { type: 'boolean' },
  ...MODE_OPTIONS,
} as const;

/** The management API's largest page of events. */
const API_PAGE = 200;

/** An event as `audit` prints it: the management API's AuditEvent (the database's made by auditEventJson). */
type AuditRow = AuditEvent;

function print(io: CliIo, slug: string, pager: Pager<AuditRow>, options: PageOptions): Promise<void> {
  return printPages<AuditRow>(
    io,
    {
      command: `petstore audit --project ${slug}`,
      pager,
      columns: ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'FROM'].map((title) => ({ title })),
      // No address at all: the reader is not an owner (only owners see where actions came from).
      row: (row) => [
        row.at,
        row.actor,
        row.action,
        row.target ?? '-',
        row.address === undefined ? '-' : (row.address ?? 'command line'),
      ],
      record: (row) => JSON.stringify(row),
      empty: 'no activity',
    },
    options,
  );
}

export async function runAudit(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'audit', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('audit takes no arguments; run "petstore audit --help"');
  const slug = stringOption(parsed, 'project');
  if (!slug) throw new UsageError('audit needs --project <slug>');
  const since = sinceOption(parsed, Date.now());
  const options: PageOptions = {
    ...jsonOutput(parsed.values),
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), 1_000),
    cursor: stringOption(parsed, 'cursor'),
    all: parsed.values.all === true,
  };
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    const { api } = mode;
    const sinceText = since === undefined ? undefined : new Date(since).toISOString();
    const pager = cursorPager(API_PAGE, async (cursor, limit) => {
      const { data } = await api.run((client) =>
        client.get('/projects/{slug}/audit', { path: { slug }, query: { limit, cursor, since: sinceText } }),
      );
      return data;
    });
    await print(io, slug, pager, options);
    return EXIT.ok;
  }
  const { storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    const audit = createAuditService({ storage });
    await print(
      io,
      slug,
      async (cursor, limit) => {
        const page = await audit.list(OPERATOR, slug, { limit, cursor, since, accountEvents: true });
        if (!page.ok) {
          throw page.problem.code === 'not_found'
            ? new NotFoundError(`no project "${slug}"; see "petstore projects list"`)
            : refusalError(page.problem);
        }
        return { items: page.value.data.map(auditEventJson), next: page.value.next ?? undefined };
      },
      options,
    );
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
