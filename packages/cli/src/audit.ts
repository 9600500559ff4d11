import { type AuditAction, loadConfig, parseSince, type Storage } from '@petstore/server';
import { databaseSource, openExistingDatabase } from './database.ts';
import { CliError, EXIT } from './exit.ts';
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

/** Records an operator's command in the project's audit trail. */
export async function recordOperator(
  storage: Pick<Storage, 'audit'>,
  action: AuditAction,
  projectId: string,
  target: string | null,
): Promise<void> {
  await storage.audit.record({
    at: Date.now(),
    projectId,
    actorAccountId: null,
    actor: 'operator',
    action,
    target,
    address: null,
  });
}

export async function runAudit(args: string[]): Promise<number> {
  const parsed = parseCommand('audit', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('audit takes no arguments; run "petstore audit --help"');
  const slug = stringOption(parsed, 'project');
  if (!slug) throw new UsageError('audit needs --project <slug>');
  const sinceText = stringOption(parsed, 'since');
  const since = sinceText === undefined ? undefined : parseSince(sinceText, Date.now());
  if (sinceText !== undefined && since === undefined) {
    throw new UsageError(
      `--since must be like 30m, 1h, 7d or an ISO 8601 instant, got ${JSON.stringify(sinceText)}`,
    );
  }
  const limit = positiveInteger('limit', stringOption(parsed, 'limit'), 1_000) ?? 100;
  const flag = stringOption(parsed, 'database');
  const config = loadConfig(process.env, { database: flag });
  const storage = await openExistingDatabase(config.databaseUrl, databaseSource(flag, process.env));
  try {
    const project = await storage.projects.bySlug(slug);
    if (!project) throw new CliError(`no project "${slug}"; see "petstore projects list"`, EXIT.notFound);
    const events = await storage.audit.list({ projectId: project.id, since, limit });
    const rows = events.map((event) => ({
      time: new Date(event.at).toISOString(),
      actor: event.actor,
      action: event.action,
      target: event.target,
      address: event.address,
    }));
    if (parsed.values.json === true) console.log(JSON.stringify(rows));
    else if (rows.length === 0) console.log('no activity');
    else {
      const columns = ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'FROM'].map((title) => ({ title }));
      console.log(
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
