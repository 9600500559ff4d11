import { createConnection } from 'node:net';
import {
  type Goal,
  median,
  medianRun,
  petstoreRow,
  roundsNote,
  row,
  type Spec,
  takeTurns,
  versusRaw,
} from './compare.ts';
import type { Harness, Measured } from './harness.ts';
import type { ScenarioName } from './options.ts';
import { attackScenario } from './scenario-attack.ts';
import { exportAttack } from './scenario-export.ts';
import { floodScenario } from './scenario-flood.ts';
import { pagingScenario } from './scenario-paging.ts';
import { purgeScenario } from './scenario-purge.ts';
import { requestLogScenario } from './scenario-request-log.ts';
import { startupScenario } from './scenario-startup.ts';
import { tenantsScenario } from './scenario-tenants.ts';
import { createKey, seedPostgres } from './seed.ts';
import type { Row } from './table.ts';

const RSS_LIMIT_MB = 150;

const GET_GOAL: Goal = {
  text: `≥ 0.45× raw, p99 ≤ 10 ms, RSS ≤ ${RSS_LIMIT_MB} MB`,
  met: (m, ratio) => ratio >= 0.45 && m.p99Ms <= 10 && m.rssMb <= RSS_LIMIT_MB && m.non2xx + m.errors === 0,
};
const GET_PET_GOAL: Goal = {
  text: `≥ 0.45× raw, RSS ≤ ${RSS_LIMIT_MB} MB`,
  met: (m, ratio) => ratio >= 0.45 && m.rssMb <= RSS_LIMIT_MB && m.non2xx + m.errors === 0,
};
const CREATE_GOAL: Goal = {
  text: '≥ 0.25× raw, p99 ≤ 25 ms',
  met: (m, ratio) => ratio >= 0.25 && m.p99Ms <= 25 && m.non2xx + m.errors === 0,
};
const SCALE_OUT_LIST_GOAL: Goal = {
  text: '≥ 0.30× raw, p99 ≤ 15 ms',
  met: (m, ratio) => ratio >= 0.3 && m.p99Ms <= 15 && m.non2xx + m.errors === 0,
};
const SCALE_OUT_CREATE_GOAL: Goal = {
  text: '≥ 0.20× raw, p99 ≤ 30 ms',
  met: (m, ratio) => ratio >= 0.2 && m.p99Ms <= 30 && m.non2xx + m.errors === 0,
};

function listSpec(key: string, query: string): Spec {
  return { method: 'GET', path: `/v1/pets?${query}`, headers: { authorization: `Bearer ${key}` } };
}

function createSpec(key: string): Spec {
  return {
    method: 'POST',
    path: '/v1/pets',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex the benchmark dog', categoryId: 7, status: 'available' }),
  };
}

async function list(harness: Harness): Promise<Row[]> {
  const { pets } = harness.options;
  const db = await harness.sqlite(pets);
  const name = `list (${pets.toLocaleString('en-US')} pets)`;
  return (await versusRaw(harness, name, db, listSpec(db.key, 'limit=20'), GET_GOAL)).rows;
}

async function get(harness: Harness): Promise<Row[]> {
  const { pets } = harness.options;
  const db = await harness.sqlite(pets);
  const spec: Spec = {
    method: 'GET',
    path: '/v1/pets/{id}',
    randomIdUpTo: pets,
    headers: harness.auth(db),
  };
  return (await versusRaw(harness, 'get (random ids)', db, spec, GET_PET_GOAL)).rows;
}

async function create(harness: Harness): Promise<Row[]> {
  const db = await harness.sqlite(harness.options.pets);
  return (await versusRaw(harness, 'create (durable)', db, createSpec(db.key), CREATE_GOAL)).rows;
}

/**
 * The same filtered first page at 10,000 and at 1,000,000 pets, both servers taking turns with the
 * baseline: keyset paging must not slow down as the table grows. The growth is the median over
 * rounds of (req/s at 1M) / (req/s at 10k) measured in the same round.
 */
async function listGrowth(harness: Harness): Promise<Row[]> {
  const sizes = [10_000, 1_000_000];
  const dbs = [];
  for (const pets of sizes) dbs.push(await harness.sqlite(pets));
  const turns = await takeTurns(harness, 'list status=available', dbs, (db) =>
    listSpec(db.key, 'limit=20&status=available'),
  );
  const raw = medianRun(turns.raw);
  const rows: Row[] = [
    row('list status=available', 'raw', raw, { note: `${turns.bodyBytes} B body${roundsNote(harness)}` }),
  ];
  sizes.forEach((pets, index) => {
    const scenario = `list status=available (${pets.toLocaleString('en-US')})`;
    rows.push(petstoreRow(scenario, medianRun(turns.servers[index]!), raw));
  });
  const [small, large] = turns.servers as [Measured[], Measured[]];
  const growth = median(large.map((run, round) => run.rps / small[round]!.rps));
  rows.push({
    scenario: 'list cost growth',
    server: '1M vs 10k',
    ratio: growth,
    target: '≥ 0.90× (within 10 %)',
    met: growth >= 0.9,
    note: 'req/s at 1M over req/s at 10k, same round; median over rounds',
  });
  return rows;
}

/** One process and `serve --workers 2`, nothing pinned: the load generator shares both cores. */
async function workers(harness: Harness): Promise<Row[]> {
  const db = await harness.sqlite(harness.options.pets);
  const spec = listSpec(db.key, 'limit=20');
  const single = await harness.startPetstore(db, { core: undefined, label: 'workers-1' });
  const oneRuns: Measured[] = [];
  const twoRuns: Measured[] = [];
  try {
    const pair = await harness.startPetstore(db, { core: undefined, label: 'workers-2', workers: 2 });
    try {
      for (let round = 0; round < harness.options.rounds; round += 1) {
        oneRuns.push(await harness.measure(single, spec, undefined));
        twoRuns.push(await harness.measure(pair, spec, undefined));
      }
    } finally {
      await harness.stop(pair);
    }
  } finally {
    await harness.stop(single);
  }
  const one = medianRun(oneRuns);
  const two = medianRun(twoRuns);
  const ratio = two.rps / one.rps;
  const bound = twoCoreBound(one);
  return [
    row('workers (unpinned)', 'petstore', one, {
      note: `${one.processes} process(es); load generator ${loadMicrosPerRequest(one).toFixed(0)} µs CPU/req`,
    }),
    row('workers (unpinned)', 'petstore --workers 2', two, {
      ratio,
      target: '≥ 1.7× one process',
      met: ratio >= 1.7,
      note:
        `× is to one process; ${two.processes} processes (primary and workers); ` +
        `2-core bound for this server and load generator: ${bound.toFixed(2)}×`,
    }),
  ];
}

function loadMicrosPerRequest(run: Measured): number {
  return (run.loadCpuSeconds * 1e6) / Math.max(1, run.requests);
}

/**
 * The best `--workers 2` can do against one process when the load generator shares the two cores:
 * one process is limited by its own core (1/s requests per µs), two workers by both cores shared with
 * the generator (2/(s + w)), so the ratio cannot exceed 2s/(s + w), s and w being the server's and the
 * generator's CPU per request.
 */
function twoCoreBound(single: Measured): number {
  const s = single.cpuMicrosPerRequest;
  return (2 * s) / (s + loadMicrosPerRequest(single));
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function postgres(harness: Harness): Promise<Row[]> {
  const url = harness.options.postgresUrl;
  if (!(await reachable(url))) {
    return [
      { scenario: 'postgres', server: 'skipped', note: `PostgreSQL not reachable at ${new URL(url).host}` },
    ];
  }
  await seedPostgres(url, harness.options.pets);
  const redisUrl = harness.options.redisUrl;
  const withRedis = redisUrl !== '' && (await reachable(redisUrl));
  const db = { url, key: createKey(url), redisUrl: withRedis ? redisUrl : undefined };
  const mode = withRedis ? 'postgres+redis' : 'postgres';
  const listName = `${mode} list status=available (${harness.options.pets.toLocaleString('en-US')})`;
  const query = 'limit=20&status=available';
  const listed = await versusRaw(harness, listName, db, listSpec(db.key, query), SCALE_OUT_LIST_GOAL);
  const created = await versusRaw(
    harness,
    `${mode} create (durable)`,
    db,
    createSpec(db.key),
    SCALE_OUT_CREATE_GOAL,
  );
  return [...listed.rows, ...created.rows];
}

export const SCENARIO_RUNNERS: Record<ScenarioName, (harness: Harness) => Promise<Row[]>> = {
  list,
  'list-1m': listGrowth,
  get,
  create,
  paging: pagingScenario,
  workers,
  startup: startupScenario,
  postgres,
  'request-log': requestLogScenario,
  attack: attackScenario,
  export: exportAttack,
  flood: floodScenario,
  tenants: tenantsScenario,
  purge: purgeScenario,
};
