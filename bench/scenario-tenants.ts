import { join } from 'node:path';
import { row, type Spec } from './compare.ts';
import { type Database, type Harness, SERVER_CORE, type Target } from './harness.ts';
import { freePort } from './processes.ts';
import { createKey, seedPostgres } from './seed.ts';
import {
  type SeededTenants,
  seedTenantsPostgres,
  seedTenantsSqlite,
  type TenantSizes,
} from './seed-tenants.ts';
import {
  idle,
  keysListMs,
  SEQUENTIAL_REQUESTS,
  sequential,
  tuplesReadPerSecond,
} from './tenants-measures.ts';
import type { Row } from './table.ts';

/** Distinct keys in rotation, against one key, on the seeded side. */
const ROTATION = 50_000;

interface Side extends SeededTenants {
  name: string;
  db: Database;
  /** Whether this side has the rotation keys (the seeded one). */
  rotation: boolean;
  postgres: boolean;
}

const count = (n: number) => n.toLocaleString('en-US');

async function seeded<T>(what: string, seed: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await seed();
  console.error(`seeded ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** A database named after --postgres-url's with `suffix`, migrated, with the pets and the bench key. */
async function postgresDatabase(harness: Harness, suffix: string): Promise<Database> {
  const url = new URL(harness.options.postgresUrl);
  url.pathname = `${url.pathname}_${suffix}`;
  await seedPostgres(url.href, harness.options.pets);
  return { url: url.href, key: createKey(url.href) };
}

async function sidesOf(harness: Harness): Promise<Side[]> {
  const { tenants, tenantKeys, tenantsPostgres } = harness.options;
  const big = (projects: number, keys: number): TenantSizes => ({
    projects,
    keys,
    rotation: Math.min(ROTATION, keys),
  });
  const one: TenantSizes = { projects: 1, keys: 1, rotation: 0 };
  const sides: Side[] = [];
  for (const [name, sizes] of [
    ['SQLite, one tenant', one],
    [`SQLite, ${count(tenants)} tenants, ${count(tenantKeys)} keys`, big(tenants, tenantKeys)],
  ] as const) {
    const db = await harness.sqlite(harness.options.pets);
    const tenantsOf = await seeded(name, () => seedTenantsSqlite(db.url, sizes, db.key));
    sides.push({ name, db, ...tenantsOf, rotation: sizes.rotation > 0, postgres: false });
  }
  if (tenantsPostgres > 0) {
    for (const [name, suffix, sizes] of [
      ['PostgreSQL, one tenant', 'tenants_one', one],
      [
        `PostgreSQL, ${count(tenantsPostgres)} tenants and keys`,
        'tenants_many',
        big(tenantsPostgres, tenantsPostgres),
      ],
    ] as const) {
      const db = await postgresDatabase(harness, suffix);
      const keysFile = join(harness.workDir, `${suffix}.keys`);
      const tenantsOf = await seeded(name, () => seedTenantsPostgres(db.url, sizes, db.key, keysFile));
      sides.push({ name, db, ...tenantsOf, rotation: sizes.rotation > 0, postgres: true });
    }
  }
  return sides;
}

/** Start-up, idle, get and list, the docs site, the TLS ask and keys in rotation, on one server. */
async function measureServer(harness: Harness, side: Side, target: Target, internal: string): Promise<Row[]> {
  const rows: Row[] = [];
  const quiet = await idle(target);
  rows.push({
    scenario: 'tenants: start-up, then idle 10 s',
    server: side.name,
    p50Ms: target.startupMs,
    rssMb: quiet.rssMb,
    note: `start-up to first 200 (p50 column); idle CPU ${quiet.cpuPercent.toFixed(2)} % of a core`,
  });
  const auth = harness.auth(side.db);
  const get: Spec = {
    method: 'GET',
    path: '/v1/pets/{id}',
    randomIdUpTo: harness.options.pets,
    headers: auth,
  };
  rows.push(row('tenants: get (random ids)', side.name, await harness.measure(target, get)));
  const list: Spec = { method: 'GET', path: '/v1/pets?limit=20', headers: auth };
  rows.push(row('tenants: list (limit=20)', side.name, await harness.measure(target, list)));
  if (side.rotation) {
    // The first pass meets every key for the first time (a digest, a query, a new limiter window): at a
    // few thousand requests a second it takes about two runs, so the third one measures keys in rotation.
    const rotating: Spec = { ...get, keysFile: side.keysFile };
    const first = await harness.measure(target, rotating);
    rows.push(row(`tenants: get, ${count(ROTATION)} keys, first pass`, side.name, first));
    const second = await harness.measure(target, rotating);
    const seen = first.requests + second.requests;
    const warm = await harness.measure(target, rotating);
    rows.push(
      row(`tenants: get, ${count(ROTATION)} keys in rotation`, side.name, warm, {
        note: `after more than ${count(seen)} requests over them (each key seen ${(seen / ROTATION).toFixed(1)}× before)`,
      }),
    );
  }
  rows.push({
    scenario: 'tenants: docs site on the last domain',
    server: side.name,
    ...(await sequential(`${target.origin}/`, side.host, 200)),
    note: `${SEQUENTIAL_REQUESTS} requests one at a time, each on a new connection`,
  });
  rows.push({
    scenario: 'tenants: TLS ask for the last domain',
    server: side.name,
    ...(await sequential(`${internal}/internal/tls/ask?domain=${side.host}`, undefined, 200)),
    note: `${SEQUENTIAL_REQUESTS} requests one at a time, each on a new connection`,
  });
  return rows;
}

/** Tuples PostgreSQL reads per idle second per instance, with `instances` servers on the database. */
async function idleReads(harness: Harness, side: Side, instances: number): Promise<Row> {
  const targets: Target[] = [];
  try {
    for (let n = 0; n < instances; n++) {
      targets.push(await harness.startPetstore(side.db, { core: undefined, label: `tenants-idle-${n}` }));
    }
    const perSecond = await tuplesReadPerSecond(side.db.url);
    return {
      scenario: `tenants: PostgreSQL tuples read per idle second, ${instances} instances`,
      server: side.name,
      rps: perSecond / instances,
      note: `per instance (req/s column); all ${instances}: ${perSecond.toFixed(0)}/s`,
    };
  } finally {
    await Promise.all(targets.map((target) => harness.stop(target)));
  }
}

/**
 * One server on a database with --tenants projects and verified domains and --tenant-keys keys (and,
 * with --tenants-postgres, a PostgreSQL database so seeded) against one with a single tenant, in the
 * same run; seeded through the product's own schema (seed-tenants.ts).
 */
export async function tenantsScenario(harness: Harness): Promise<Row[]> {
  const sides = await sidesOf(harness);
  const rows: Row[] = [];
  for (const side of sides) {
    const internalPort = await freePort();
    const target = await harness.startPetstore(side.db, {
      core: SERVER_CORE,
      label: `tenants-${side.name.replace(/\W+/g, '-')}`,
      env: { PETSTORE_INTERNAL_PORT: String(internalPort), PETSTORE_INTERNAL_HOST: '127.0.0.1' },
    });
    try {
      rows.push(...(await measureServer(harness, side, target, `http://127.0.0.1:${internalPort}`)));
    } finally {
      await harness.stop(target);
    }
    rows.push({
      scenario: 'tenants: keys list --limit 20 (process)',
      server: side.name,
      p50Ms: keysListMs(side.db),
      note: 'wall time of a fresh CLI process',
    });
    if (side.postgres) for (const instances of [2, 4]) rows.push(await idleReads(harness, side, instances));
  }
  return rows;
}
