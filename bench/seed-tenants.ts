import { writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { generateKey, keyEnvironment } from '../packages/server/src/auth/keys.ts';

/** Far in the future: no seeded domain is due a DNS check during the run. */
const NOT_DUE = 4_102_444_800_000;
const T0 = Date.UTC(2026, 0, 1);
/** Rows per INSERT … SELECT: progress is printed between them, and no statement holds the WAL long. */
const CHUNK = 1_000_000;

export interface TenantSizes {
  /** Projects on Pro, each with one verified primary custom domain `t<n>.tenants.example`. */
  projects: number;
  /** Keys spread over the projects (key n belongs to project n mod projects). */
  keys: number;
  /**
   * Keys of the bench project whose secrets are known (written to a file, one a line), for the
   * keys-in-rotation measure; counted in `keys`.
   */
  rotation: number;
}

export interface SeededTenants {
  /** The last project's domain: the one asked for. */
  host: string;
  /** The file holding the rotation keys' secrets. */
  keysFile: string;
}

const progress = (what: string, done: number, started: number) =>
  console.error(
    `  ${what}: ${done.toLocaleString('en-US')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );

/** The rotation keys: secrets to a file, rows (id, digest, prefix) to insert. */
function rotationKeys(sample: string, count: number, file: string) {
  const environment = keyEnvironment(sample);
  if (!environment) throw new Error('the bench key is no key');
  const keys = Array.from({ length: count }, () => generateKey(environment));
  writeFileSync(file, keys.map((key) => key.secret).join('\n'));
  return { environment, keys };
}

/**
 * Rows per statement, in the product's own tables (migrated by `petstore migrate`), by set-based
 * INSERT … SELECT over a recursive counter: the triggers of migrations 090 and 125 run as for any write.
 * One column set for both dialects: `$FROM`/`$TO` bound per chunk; `$N` is the counter's column.
 */
const PROJECTS = `INSERT INTO projects (id, slug, name, plan, per_minute, per_day, created_at)
  SELECT 'prj_t' || n, 't' || n, 'Tenant ' || n, 'pro', NULL, NULL, ${T0} FROM counter`;
const DOMAINS = `INSERT INTO custom_domains (hostname, project_id, apex, token, state, reason, is_primary,
    checks, created_at, verified_at, checked_at, next_check_at, check_failures, proof_txt)
  SELECT 't' || n || '.tenants.example', 'prj_t' || n, $FALSE, 'token', 'verified', NULL, $TRUE,
    '{"records":[],"warnings":[]}', ${T0}, ${T0}, ${T0}, ${NOT_DUE}, 0, $FALSE FROM counter`;
const KEYS = `INSERT INTO api_keys (id, digest, project_id, prefix, plan, per_minute, per_day, label,
    environment, created_at, expires_at)
  SELECT 'key_t' || n, $DIGEST, 'prj_t' || (n % $PROJECTS), NULL, 'pro', NULL, NULL, NULL, $ENV,
    ${T0} + n, NULL FROM counter`;

/** SQLite: `sizes` tenants into the migrated file at `path` (its bench key names the environment). */
export function seedTenantsSqlite(path: string, sizes: TenantSizes, benchKey: string): SeededTenants {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA synchronous = OFF');
  db.exec('PRAGMA cache_size = -1000000');
  const keysFile = `${path}.keys`;
  const { environment, keys } = rotationKeys(benchKey, sizes.rotation, keysFile);
  const started = performance.now();
  const chunks = (what: string, total: number, sql: string) => {
    for (let from = 0; from < total; from += CHUNK) {
      const to = Math.min(total, from + CHUNK) - 1;
      db.exec('BEGIN');
      db.exec(
        `WITH RECURSIVE counter(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM counter WHERE n < ${to}) ${sql}`,
      );
      db.exec('COMMIT');
      progress(what, to + 1, started);
    }
  };
  const sqlite = (sql: string) =>
    sql
      .replaceAll('$FALSE', '0')
      .replaceAll('$TRUE', '1')
      .replaceAll('$DIGEST', 'lower(hex(randomblob(32)))')
      .replaceAll('$PROJECTS', String(sizes.projects))
      .replaceAll('$ENV', `'${environment}'`);
  chunks('projects', sizes.projects, sqlite(PROJECTS));
  chunks('domains', sizes.projects, sqlite(DOMAINS));
  chunks('keys', sizes.keys - sizes.rotation, sqlite(KEYS));
  const bench = db.prepare("SELECT id FROM projects WHERE slug = 'bench'").get()!.id as string;
  const insert = db.prepare(
    `INSERT INTO api_keys (id, digest, project_id, prefix, plan, per_minute, per_day, label, environment,
       created_at, expires_at) VALUES (?, ?, ?, ?, 'enterprise', NULL, NULL, 'rotation', ?, ?, NULL)`,
  );
  db.exec('BEGIN');
  for (const [n, key] of keys.entries())
    insert.run(key.id, key.digest, bench, key.prefix, environment, T0 + n);
  db.exec('COMMIT');
  db.exec('ANALYZE');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { host: `t${sizes.projects - 1}.tenants.example`, keysFile };
}

/** PostgreSQL: the same rows, by generate_series, then VACUUM ANALYZE (as autovacuum would, later). */
export async function seedTenantsPostgres(
  url: string,
  sizes: TenantSizes,
  benchKey: string,
  keysFile: string,
): Promise<SeededTenants> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { environment, keys } = rotationKeys(benchKey, sizes.rotation, keysFile);
    const started = performance.now();
    const chunks = async (what: string, total: number, sql: string) => {
      for (let from = 0; from < total; from += CHUNK) {
        const to = Math.min(total, from + CHUNK) - 1;
        await client.query(`WITH counter(n) AS (SELECT generate_series(${from}, ${to})) ${sql}`);
        progress(what, to + 1, started);
      }
    };
    const postgres = (sql: string) =>
      sql
        .replaceAll('$FALSE', 'false')
        .replaceAll('$TRUE', 'true')
        .replaceAll('$DIGEST', "md5(random()::text) || md5(n::text || 'k')")
        .replaceAll('$PROJECTS', String(sizes.projects))
        .replaceAll('$ENV', `'${environment}'`);
    await client.query('SET synchronous_commit = off');
    await chunks('projects', sizes.projects, postgres(PROJECTS));
    await chunks('domains', sizes.projects, postgres(DOMAINS));
    await chunks('keys', sizes.keys - sizes.rotation, postgres(KEYS));
    const { rows } = await client.query<{ id: string }>("SELECT id FROM projects WHERE slug = 'bench'");
    await client.query(
      `INSERT INTO api_keys (id, digest, project_id, prefix, plan, per_minute, per_day, label, environment,
         created_at, expires_at)
       SELECT k.id, k.digest, $1, k.prefix, 'enterprise', NULL, NULL, 'rotation', $2, ${T0} + k.n, NULL
       FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS k(id, digest, prefix, n)`,
      [
        rows[0]!.id,
        environment,
        keys.map((key) => key.id),
        keys.map((key) => key.digest),
        keys.map((key) => key.prefix),
      ],
    );
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  return { host: `t${sizes.projects - 1}.tenants.example`, keysFile };
}
