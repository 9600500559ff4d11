import { join } from 'node:path';
import { medianRun, row, type Spec } from './compare.ts';
import { type Database, type Harness, type Measured, SERVER_CORE, type Target } from './harness.ts';
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
  /** Keys in rotation on this side (the seeded one); 0 on the one-tenant side. */
  rotation: number;
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
  const { tenants, tenantKeys, tenantsPostgres, tenantKeysPostgres } = harness.options;
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
    sides.push({ name, db, ...tenantsOf, rotation: sizes.rotation, postgres: false });
  }
  if (tenantsPostgres > 0) {
    for (const [name, suffix, sizes] of [
      ['PostgreSQL, one tenant', 'tenants_one', one],
      [
        `PostgreSQL, ${count(tenantsPostgres)} tenants, ${count(tenantKeysPostgres)} keys`,
        'tenants_many',
        big(tenantsPostgres, tenantKeysPostgres),
      ],
    ] as const) {
      const db = await postgresDatabase(harness, suffix);
      const keysFile = join(harness.workDir, `${suffix}.keys`);
      const tenantsOf = await seeded(name, () => seedTenantsPostgres(db.url, sizes, db.key, keysFile));
      sides.push({ name, db, ...tenantsOf, rotation: sizes.rotation, postgres: true });
    }
  }
  return sides;
}

/** A side's server, pinned to the server's core, with its internal listener (the TLS ask). */
interface Running {
  side: Side;
  target: Target;
  internal: string;
}

async function startSide(harness: Harness, side: Side): Promise<Running> {
  const internalPort = await freePort();
  const target = await harness.startPetstore(side.db, {
    core: SERVER_CORE,
    label: `tenants-${side.name.replace(/\W+/g, '-')}`,
    env: { PETSTORE_INTERNAL_PORT: String(internalPort), PETSTORE_INTERNAL_HOST: '127.0.0.1' },
  });
  return { side, target, internal: `http://127.0.0.1:${internalPort}` };
}

/** Start-up, then 10 s idle: CPU and resident memory. */
async function idleRow(running: Running): Promise<Row> {
  const quiet = await idle(running.target);
  return {
    scenario: 'tenants: start-up, then idle 10 s',
    server: running.side.name,
    p50Ms: running.target.startupMs,
    rssMb: quiet.rssMb,
    note: `start-up to first 200 (p50 column); idle CPU ${quiet.cpuPercent.toFixed(2)} % of a core`,
  };
}

const getSpec = (harness: Harness, side: Side): Spec => ({
  method: 'GET',
  path: '/v1/pets/{id}',
  randomIdUpTo: harness.options.pets,
  headers: harness.auth(side.db),
});
const listSpec = (harness: Harness, side: Side): Spec => ({
  method: 'GET',
  path: '/v1/pets?limit=20',
  headers: harness.auth(side.db),
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/**
 * Get and list on the one-tenant server and the many-tenant one, both running, in --rounds rounds
 * whose order alternates (one then many, many then one, …): a drift of the machine falls on both
 * sides alike. Each side reports its median round; the many side's note, the ratio per round.
 */
async function pairedLoads(harness: Harness, [one, many]: readonly [Running, Running]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [scenario, spec] of [
    ['tenants: get (random ids)', getSpec],
    ['tenants: list (limit=20)', listSpec],
  ] as const) {
    const runs: [Measured[], Measured[]] = [[], []];
    const ratios: number[] = [];
    for (let round = 0; round < harness.options.rounds; round += 1) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const measured: Measured[] = [];
      for (const index of order) {
        const { side, target } = [one, many][index]!;
        measured[index] = await harness.measure(target, spec(harness, side));
      }
      runs[0].push(measured[0]!);
      runs[1].push(measured[1]!);
      ratios.push(measured[1]!.rps / measured[0]!.rps);
    }
    const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    rows.push(row(scenario, one.side.name, medianRun(runs[0])));
    rows.push(
      row(scenario, many.side.name, medianRun(runs[1]), {
        note:
          harness.options.rounds > 1
            ? `req/s over the one tenant's, round by round (order alternating): median ${median(ratios).toFixed(2)} (${spread}), ${ratios.length} rounds`
            : 'one round: run with --rounds 5 or more to see the spread',
      }),
    );
  }
  return rows;
}

/** Keys in rotation (the seeded side), the docs site and the TLS ask on the last domain. */
async function measureServer(harness: Harness, { side, target, internal }: Running): Promise<Row[]> {
  const rows: Row[] = [];
  if (side.rotation > 0) {
    // The first pass meets every key for the first time (a digest, a query, a new limiter window): at a
    // few thousand requests a second it takes about two runs, so the third one measures keys in rotation.
    const rotating: Spec = { ...getSpec(harness, side), keysFile: side.keysFile };
    const first = await harness.measure(target, rotating);
    rows.push(row(`tenants: get, ${count(side.rotation)} keys, first pass`, side.name, first));
    const second = await harness.measure(target, rotating);
    const seen = first.requests + second.requests;
    const warm = await harness.measure(target, rotating);
    rows.push(
      row(`tenants: get, ${count(side.rotation)} keys in rotation`, side.name, warm, {
        note: `after more than ${count(seen)} requests over them (each key seen ${(seen / side.rotation).toFixed(1)}× before)`,
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
  // Sides come in pairs on one engine: one tenant, then many.
  for (let index = 0; index < sides.length; index += 2) {
    const running: Running[] = [];
    try {
      // One after the other, so that neither start-up shares the core with the other's.
      for (const side of [sides[index]!, sides[index + 1]!]) {
        const started = await startSide(harness, side);
        running.push(started);
        rows.push(await idleRow(started));
      }
      rows.push(...(await pairedLoads(harness, [running[0]!, running[1]!])));
      for (const started of running) rows.push(...(await measureServer(harness, started)));
    } finally {
      await Promise.all(running.map(({ target }) => harness.stop(target)));
    }
    for (const side of [sides[index]!, sides[index + 1]!]) {
      rows.push({
        scenario: 'tenants: keys list --limit 20 (process)',
        server: side.name,
        p50Ms: keysListMs(side.db),
        note: 'wall time of a fresh CLI process',
      });
      if (side.postgres) for (const instances of [2, 4]) rows.push(await idleReads(harness, side, instances));
    }
  }
  return rows;
}
