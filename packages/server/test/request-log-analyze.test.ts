import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { ANALYZE_AT_ROWS } from '../src/storage/partition-analysis.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { DAY_MS } from '../src/features/requests/request-log-batch.ts';
import { LONGEST_RETENTION_DAYS } from '../src/features/requests/request-log-expiry.ts';
import { partitionName } from '../src/features/requests/request-log-postgres.ts';
import { reusableSchema, type ReusableSchema } from './postgres-schema.ts';
import { service } from './services.ts';
import { logged } from './storage-contract-request-log.ts';
import { openStore, type StoreOf } from '../src/features/store.ts';

const postgres = await service('postgres');
const skip = 'skip' in postgres ? postgres.skip : false;
const url = 'url' in postgres ? postgres.url : '';

/** What PostgreSQL knows of a table for planning: set by ANALYZE, not by inserting rows. */
async function statistics(admin: pg.Pool, schema: string, table: string) {
  const { rows } = await admin.query<{ analysed: boolean; tuples: number; columns: string }>(
    `SELECT s.last_analyze IS NOT NULL AS analysed, c.reltuples AS tuples,
       (SELECT count(*) FROM pg_stats p WHERE p.schemaname = $1 AND p.tablename = $2) AS columns
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = $1 AND s.relname = $2`,
    [schema, table],
  );
  return { analysed: rows[0]!.analysed, tuples: Number(rows[0]!.tuples), columns: Number(rows[0]!.columns) };
}

describe('request log on PostgreSQL: a new day partition is analysed by the server', { skip }, () => {
  let admin: pg.Pool;
  let shared: ReusableSchema;
  let storage: StoreOf<PostgresStorage>;
  const warnings: object[] = [];

  before(async () => {
    admin = new pg.Pool({ connectionString: url, max: 2 });
    shared = reusableSchema(admin);
    storage = openStore(new PostgresStorage({ url, schema: shared.name, poolSize: 3 }));
    await storage.migrate();
    storage.attachLogger({ warn: (obj) => void warnings.push(obj) });
  });
  after(async () => {
    await storage.close();
    await shared.drop();
    await admin.end();
  });

  it(`its first ${ANALYZE_AT_ROWS[0].toLocaleString('en')} batches → ANALYZE ran on it (last_analyze, reltuples, pg_stats), none before`, async () => {
    const day = Math.floor(Date.UTC(2026, 10, 25) / DAY_MS);
    const table = partitionName(day + 1 + LONGEST_RETENTION_DAYS);
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        // A project each: one batch each.
        logged({
          projectId: `prj_${from + i}`,
          at: day * DAY_MS + from + i,
          requestId: `req-${from + i}`,
          status: i % 50 === 0 ? 503 : 200,
        }),
      );
    await storage.requestLog.write(rows(0, ANALYZE_AT_ROWS[0] - 1));
    await storage.requestLog.analysis.idle();
    const before = await statistics(admin, shared.name, table);
    assert.equal(before.analysed, false, 'not analysed below the first step');
    assert.equal(before.columns, 0);

    await storage.requestLog.write(rows(ANALYZE_AT_ROWS[0] - 1, 1));
    await storage.requestLog.analysis.idle();
    const after = await statistics(admin, shared.name, table);
    assert.equal(after.analysed, true, 'ANALYZE ran (not autovacuum, which sets last_autoanalyze)');
    assert.equal(after.tuples, ANALYZE_AT_ROWS[0]);
    assert.ok(after.columns > 0, 'column statistics for the planner');
    assert.deepEqual(warnings, []);
  });

  it('an ANALYZE holding its lock on the partition → rows are still written into it, no insert waits', async () => {
    const day = Math.floor(Date.UTC(2026, 10, 27) / DAY_MS);
    const table = `${shared.name}.${partitionName(day + 1 + LONGEST_RETENTION_DAYS)}`;
    await storage.requestLog.write([logged({ at: day * DAY_MS })]);
    const analysing = await admin.connect();
    try {
      await analysing.query('BEGIN');
      await analysing.query(`ANALYZE ${table}`);
      let written = false;
      const write = storage.requestLog.write([logged({ at: day * DAY_MS + 1 })]).then(() => (written = true));
      // Either the write completes, or PostgreSQL shows it waiting for a lock on the partition.
      for (;;) {
        if (written) break;
        const { rows } = await admin.query(
          'SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND relation = $1::regclass',
          [table],
        );
        assert.equal(Number(rows[0].n), 0, 'an insert waits for the lock ANALYZE holds');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await write;
    } finally {
      await analysing.query('COMMIT');
      analysing.release();
    }
    const { rows } = await admin.query(`SELECT count(*) AS n FROM ${table}`);
    assert.equal(Number(rows[0].n), 2);
  });

  it('the partition dropped by the purge before its analysis → nothing logged, writes go on', async () => {
    const day = Math.floor(Date.UTC(2026, 10, 26) / DAY_MS);
    await storage.requestLog.write([logged({ at: day * DAY_MS })]);
    await admin.query(`DROP TABLE ${shared.name}.${partitionName(day + 1 + LONGEST_RETENTION_DAYS)}`);
    storage.requestLog.analysis.wrote(partitionName(day + 1 + LONGEST_RETENTION_DAYS), ANALYZE_AT_ROWS[0]);
    await storage.requestLog.analysis.idle();
    assert.deepEqual(warnings, []);
    await storage.requestLog.write([logged({ at: day * DAY_MS + 1 })]);
  });
});
