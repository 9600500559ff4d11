import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStoreAt, type Store } from '../packages/server/src/features/store.ts';

const HELP = `node bench/key-touches.ts [--database sqlite|postgres] [--keys N] [--used N] [--rounds N]

A minute's "last used" writes of one server process (auth/key-usage.ts): --used keys (default 50,000)
among --keys (default 200,000) written as the keys' repository writes them (an upsert into api_key_uses
per 500 keys, in key order), against the same uses written the way they were before migration 230 (an
UPDATE of the keys' own rows per 500 keys, in the order they came), in turns, --rounds times (default
3); prints the median milliseconds of each and their ratio.
  --database   sqlite (a file in a temporary directory; default) or postgres (a schema of its own on
               PETSTORE_BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test, dropped after)`;

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    keys: { type: 'string', default: '200000' },
    used: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '3' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const [keys, used, rounds] = [Number(values.keys), Number(values.used), Number(values.rounds)];
const whole = (n: number) => Number.isInteger(n) && n > 0;
if (!['sqlite', 'postgres'].includes(values.database) || ![keys, used, rounds].every(whole) || used > keys) {
  console.error(HELP);
  process.exit(2);
}

const postgres = values.database === 'postgres';
const postgresUrl = process.env.PETSTORE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `petstore_bench_touches_${process.pid}`;
const dir = await mkdtemp(join(tmpdir(), 'petstore-bench-touches-'));
const storage: Store = postgres
  ? await openStoreAt(postgresUrl, { schema, poolSize: 5 })
  : await openStoreAt(join(dir, 'petstore.db'));
await storage.migrate();

// Keys as the service makes them: ids of random hex, created one after another (so a key's row sits
// with those created near it, not with the ids near its own).
const CHUNK = 10_000;
const randomHex = postgres ? 'substr(md5(random()::text), 1, 16)' : 'lower(hex(randomblob(8)))';
const digest = postgres ? 'md5(random()::text) || md5(random()::text)' : 'lower(hex(randomblob(32)))';
for (let from = 0; from < keys; from += CHUNK) {
  const to = Math.min(keys, from + CHUNK) - 1;
  await storage.sql.run(
    `WITH RECURSIVE counter(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM counter WHERE n < ${to})
     INSERT INTO api_keys (id, digest, plan, environment, created_at)
     SELECT 'key_' || ${randomHex} || n, ${digest}, 'pro', 'test', 1767225600000 + n FROM counter`,
  );
}
const all = (await storage.sql.all('SELECT id FROM api_keys')).map((row) => String(row.id));
for (let i = all.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [all[i], all[j]] = [all[j]!, all[i]!];
}
const inUse = all.slice(0, used);

/** The writes before migration 230: the keys' own rows, 500 a statement, in the order of first use. */
async function updateKeyRows(at: number): Promise<void> {
  for (let from = 0; from < inUse.length; from += 500) {
    const batch = inUse.slice(from, from + 500);
    const rows = batch.map((_, i) => `($${2 * i + 1}, CAST($${2 * i + 2} AS BIGINT))`).join(', ');
    await storage.sql.run(
      `UPDATE api_keys SET last_used_at = v.column2 FROM (VALUES ${rows}) AS v
       WHERE api_keys.id = v.column1 AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < v.column2)`,
      batch.flatMap((id) => [id, at]),
    );
  }
}

const timed = async (write: () => Promise<void>) => {
  const started = performance.now();
  await write();
  return performance.now() - started;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const before: number[] = [];
const after: number[] = [];
// Each round a minute later than the last, so every use moves a key's time forward and is written.
for (let round = 0; round < rounds; round++) {
  const at = 1767225600000 + (round + 1) * 60_000;
  const repository = () => storage.keys.touch(inUse.map((id) => ({ id, at })));
  if (round % 2 === 0) {
    before.push(await timed(() => updateKeyRows(at)));
    after.push(await timed(repository));
  } else {
    after.push(await timed(repository));
    before.push(await timed(() => updateKeyRows(at)));
  }
}
const [b, a] = [median(before), median(after)];
const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
console.log(
  `${values.database}: ${used.toLocaleString('en-US')} keys' last uses among ${keys.toLocaleString('en-US')} keys`,
);
console.log(`  keys' own rows (before migration 230): median ${b.toFixed(0)} ms (${ms(before)})`);
console.log(`  api_key_uses (the repository):         median ${a.toFixed(0)} ms (${ms(after)})`);
console.log(`  ${(b / a).toFixed(1)}x less time; ${((a * 1000) / used).toFixed(1)} µs a key`);

await storage.close();
if (postgres) {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}
await rm(dir, { recursive: true, force: true });
