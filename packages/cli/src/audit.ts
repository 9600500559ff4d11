import { openServerDatabase } from './database.ts';
import { sinceOption } from './since-option.ts';
import { CliError, EXIT } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { formatTable } from './table.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore audit --project <slug> [--since 1h|7d|ISO] [--limit N] [--json]

  Who did what in the project, newest first (at most --limit, default 100, up to 1000): dashboard
  actions with the member's email and address, operator commands as "operator", and members' sign-ins
  and password changes. With --json, an array of {time, actor, action, target, address}.
  --database URL   the server's database (DATABASE_URL, default ./data/petstore.db).`;

const OPTIONS = {
  project: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
} as const;

export async function runAudit(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'audit', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('audit takes no arguments; run "petstore audit --help"');
  const slug = stringOption(parsed, 'project');
  if (!slug) throw new UsageError('audit needs --project <slug>');
  const since = sinceOption(parsed, Date.now());
  const limit = positiveInteger('limit', stringOption(parsed, 'limit'), 1_000) ?? 100;
  const flag = stringOption(parsed, 'database');
  const { storage } = await openServerDatabase(io, flag);
  try {
    const project = await storage.projects.bySlug(slug);
    if (!project) throw new CliError(`no project "${slug}"; see "petstore projects list"`, EXIT.notFound);
    const events = await storage.audit.list({ projectId: project.id, since, limit, accountEvents: true });
    const rows = events.map((event) => ({
      time: new Date(event.at).toISOString(),
      actor: event.actor,
      action: event.action,
      target: event.target,
      address: event.address,
    }));
    if (parsed.values.json === true) say(io, JSON.stringify(rows));
    else if (rows.length === 0) say(io, 'no activity');
    else {
      const columns = ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'FROM'].map((title) => ({ title }));
      say(
        io,
        formatTable(
          columns,
          rows.map((row) => [
            row.time,
            row.actor,
            row.action,
            row.target ?? '-',
            row.address ?? 'command line',
          ]),
        ),
      );
    }
    return EXIT.ok;
  } finally {
    await storage.close();
  }
}
