import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

/** The command `npm start` and `npx petstore` run (it turns on Node's compile cache first). */
export const CLI = new URL('../packages/cli/bin/petstore.js', import.meta.url).pathname;

/**
 * Builds the checkout at `root` as `npm ci` does (its contracts, its dependency bundle…), so a benchmark
 * runs what ships whatever was done to it since (an `npm install` makes the dependency bundle stale).
 * Versions from before the first build script have none.
 */
export function buildCheckout(root = new URL('..', import.meta.url).pathname): string {
  if (existsSync(join(root, 'scripts', 'build.ts'))) {
    execFileSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'ignore' });
  }
  return root;
}

/**
 * The Node flags `npm start` runs the CLI with (package.json scripts.start of the checkout at `root`),
 * so the bench starts it alike, and each side of an A/B with its own version's flags.
 */
export function startNodeFlags(root = new URL('..', import.meta.url).pathname): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  // Since the script execs node (so that npm's signals reach the server), `exec` comes first.
  const words = manifest.scripts.start
    .trim()
    .split(/\s+/)
    .filter((word, index) => !(index === 0 && word === 'exec'));
  const script = words.findIndex((word) => word.endsWith('petstore.js'));
  if (words[0] !== 'node' || script === -1)
    throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return words.slice(1, script);
}

/**
 * Every pet gets a name, a category among 50 and a status: 40 % available, 20 % pending, 30 % sold,
 * 10 % none. The same SQL text seeds SQLite and PostgreSQL (both know recursive CTEs and `%`).
 */
export const STATUS_OF_N = `CASE n % 10 WHEN 0 THEN NULL WHEN 1 THEN 'pending' WHEN 2 THEN 'pending'
  WHEN 3 THEN 'sold' WHEN 4 THEN 'sold' WHEN 5 THEN 'sold' ELSE 'available' END`;

/** `petstore migrate` of the given CLI (another version's, for A/B rounds) against `databaseUrl`. */
function migrate(databaseUrl: string, cli: string): void {
  execFileSync(process.execPath, [cli, 'migrate'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/**
 * The storage layer has no batch insert (createPet is one pet per call, group-committed), so seeding
 * migrates with `petstore migrate` and then fills the table with one INSERT … SELECT in one transaction.
 */
export async function seedSqlite(path: string, pets: number, cli = CLI): Promise<void> {
  migrate(path, cli);
  const db = new DatabaseSync(path);
  db.exec('PRAGMA synchronous = OFF');
  db.exec('BEGIN');
  db.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
     INSERT INTO pets (name, category_id, status) SELECT 'pet ' || n, n % 50 + 1, ${STATUS_OF_N} FROM seq`,
  ).run(pets);
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}

/** Drops and re-creates the database named by `url`, migrates it and seeds `pets` pets. */
export async function seedPostgres(url: string, pets: number, cli = CLI): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`refusing to drop database "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  migrate(url, cli);
  const seeder = new pg.Client({ connectionString: url });
  await seeder.connect();
  try {
    await seeder.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT 'pet ' || n, n % 50 + 1, ${STATUS_OF_N} FROM generate_series(1, $1::int) AS n`,
      [pets],
    );
    await seeder.query('VACUUM ANALYZE pets');
  } finally {
    await seeder.end();
  }
}

/**
 * An enterprise key from the CLI, as an operator makes one: rate limiting stays on, with limits no
 * benchmark reaches. The key is the last line the command prints.
 */
export function createKey(databaseUrl: string, cli = CLI): string {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  const limits = ['--per-minute', '100000000', '--per-day', '1000000000'];
  // A project key, as consumers use: its requests go through the request log like theirs.
  const project = spawnSync(
    process.execPath,
    [cli, 'projects', 'create', '--name', 'Bench', '--slug', 'bench', '--plan', 'enterprise', ...limits],
    { env, encoding: 'utf8' },
  );
  if (project.status !== 0 && !/taken|exists/i.test(project.stderr)) {
    throw new Error(`projects create failed: ${project.stderr}`);
  }
  const output = execFileSync(
    process.execPath,
    [cli, 'keys', 'create', '--project', 'bench', '--label', 'bench'],
    { env, encoding: 'utf8' },
  );
  const key = output.trim().split('\n').at(-1);
  if (!key?.startsWith('ps_')) throw new Error(`keys create printed no key: ${output}`);
  return key;
}
