import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStoreAt } from '@petstore/server';
import { cli as runCli } from './run-cli.ts';

describe('petstore logs and audit', () => {
  let dir: string;
  let database: string;
  const cli = (args: string[]) => runCli(args, { cwd: dir, env: { DATABASE_URL: database } });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-logs-'));
    database = join(dir, 'petstore.db');
    assert.equal((await cli(['migrate'])).code, 0);
    assert.equal(
      (await cli(['projects', 'create', '--name', 'Acme', '--slug', 'acme', '--plan', 'pro'])).code,
      0,
    );
    const storage = await openStoreAt(database);
    const project = (await storage.projects.bySlug('acme'))!;
    const now = Date.now();
    const row = (requestId: string, at: number, status: number, code: string | null) => ({
      projectId: project.id,
      at,
      requestId,
      keyId: 'key_a',
      keyLabel: 'Storefront',
      operation: 'listPets',
      method: 'GET',
      path: '/v1/pets?token=[redacted]',
      status,
      code,
      latencyMs: 2.5,
      address: '192.0.2.1',
    });
    await storage.requestLog.write([
      row('old-ok', now - 3 * 3_600_000, 200, null),
      row('recent-bad', now - 60_000, 400, 'invalid_parameter'),
      { ...row('recent-limited', now - 30_000, 429, 'rate_limited'), count: 40 },
      row('too-old', now - 8 * 86_400_000, 200, null),
    ]);
    await storage.close();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("logs --json → the management API's LoggedRequest objects, newest first; none past retention", async () => {
    const result = await cli(['logs', '--project', 'acme', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((r) => r.requestId),
      ['recent-limited', 'recent-bad', 'old-ok'],
    );
    assert.deepEqual(Object.keys(rows[0]!), [
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
    ]);
    assert.equal(rows[0]!.code, 'rate_limited');
    assert.equal(rows[0]!.count, 40, 'the refusals of one second, one row');
    assert.match(rows[0]!.at as string, /^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('logs --status 4xx --since 1h → only recent client errors but 429; --status 429 → the 429 alone', async () => {
    const result = await cli(['logs', '--project', 'acme', '--status', '4xx', '--since', '1h', '--json']);
    assert.deepEqual(
      (JSON.parse(result.stdout) as { requestId: string }[]).map((r) => r.requestId),
      ['recent-bad'],
    );
    const limited = await cli(['logs', '--project', 'acme', '--status', '429', '--json']);
    assert.deepEqual(
      (JSON.parse(limited.stdout) as { requestId: string }[]).map((r) => r.requestId),
      ['recent-limited'],
    );
  });

  it('logs without --json → a table with a header and one line per request', async () => {
    const result = await cli(['logs', '--project', 'acme', '--limit', '2']);
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    assert.match(header!, /^TIME\s+STATUS\s+CODE\s+METHOD\s+PATH\s+KEY\s+MS\s+REQUEST ID$/);
    assert.equal(lines.length, 2);
    assert.match(
      lines[0]!,
      /429\s+rate_limited ×40\s+GET\s+\/v1\/pets\?token=\[redacted\]\s+Storefront\s+2\.5\s+recent-limited$/,
    );
  });

  it('audit --json → AuditEvent objects of operator commands: actor, action, target, no address, newest first', async () => {
    assert.equal((await cli(['projects', 'set-plan', 'acme', '--plan', 'business'])).code, 0);
    const result = await cli(['audit', '--project', 'acme', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((row) => [row.actor, row.action, row.target, row.address]),
      [
        ['operator', 'plan_changed', 'pro → business', null],
        ['operator', 'project_created', 'Acme (pro)', null],
      ],
    );
    assert.match(rows[0]!.at as string, /Z$/);
    assert.deepEqual(Object.keys(rows[0]!), ['id', 'at', 'actor', 'action', 'target', 'address', 'via']);
    const lines = await cli(['audit', '--project', 'acme', '--all', '--limit', '1', '--ndjson']);
    assert.equal(lines.code, 0, lines.stderr);
    assert.equal(lines.stdout, rows.map((row) => `${JSON.stringify(row)}\n`).join(''), 'one object a line');
    assert.equal((await cli(['audit', '--project', 'nope'])).code, 3);
  });

  it('bad words (inherited names too: __proto__, constructor) → exit 2 naming the flag; an unknown project → exit 3', async () => {
    for (const [args, pattern] of [
      [['logs'], /--project/],
      [['logs', '--project', 'acme', '--status', '3xx'], /--status/],
      [['logs', '--project', 'acme', '--since', 'yesterday'], /--since/],
      [['logs', '--project', 'acme', '--limit', '0'], /--limit/],
      [['logs', '--project', 'acme', '--status', '__proto__'], /--status/],
      [['logs', '--project', 'acme', '--since', 'constructor'], /--since/],
      [['logs', '--project', 'acme', '--__proto__', '-1'], /unknown option --__proto__/],
      [['audit', '--project', 'acme', '--toString', '-1'], /unknown option --toString/],
      [['logs', '--project', 'acme', '--json', '--ndjson'], /--json or --ndjson, not both/],
    ] as const) {
      const result = await cli([...args]);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, pattern);
    }
    const missing = await cli(['logs', '--project', 'nope']);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /no project "nope"/);
  });
});
