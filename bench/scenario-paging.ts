import { type Database, type Harness, LOAD_CORE, SERVER_CORE, type Target } from './harness.ts';
import { readResult, runPinned } from './load.ts';
import { fetchOnce } from './processes.ts';
import type { Row } from './table.ts';

const WALKER = new URL('./walk.ts', import.meta.url).pathname;
const PAGE = '/v1/pets?limit=100';

interface Walk {
  pages: number;
  pets: number;
  ms: number;
  medianMs: number;
  p99Ms: number;
}

async function walk(target: Target, args: string[]): Promise<Walk> {
  const output = await runPinned(LOAD_CORE, process.execPath, [WALKER, '--origin', target.origin, ...args]);
  return readResult(output) as unknown as Walk;
}

/**
 * Warms the server up on the first page, then walks every page twice: the first walk reads every
 * page from the database, the second may be answered from a read cache.
 */
async function walkAll(target: Target, db: Database): Promise<{ cold: Walk; warm: Walk }> {
  await walk(target, ['--path', PAGE, '--key', db.key, '--requests', '500']);
  const cold = await walk(target, ['--path', PAGE, '--key', db.key]);
  const warm = await walk(target, ['--path', PAGE, '--key', db.key]);
  return { cold, warm };
}

async function walkAt(harness: Harness, pets: number): Promise<{ rows: Row[]; msPerPage: number }> {
  const db = await harness.sqlite(pets);
  const scenario = `paging ${pets.toLocaleString('en-US')} (limit=100)`;
  const server = await harness.startPetstore(db, { core: SERVER_CORE, label: `paging-${pets}-petstore` });
  let petstore: Walk;
  let again: Walk;
  let firstPage: Awaited<ReturnType<typeof fetchOnce>>;
  try {
    firstPage = await fetchOnce(`${server.origin}${PAGE}`, { headers: harness.auth(db) });
    ({ cold: petstore, warm: again } = await walkAll(server, db));
  } finally {
    await harness.stop(server);
  }
  const baseline = await harness.startRaw(firstPage, SERVER_CORE, `paging-${pets}-raw`);
  let raw: Walk;
  try {
    await walk(baseline, ['--path', '/', '--requests', '500']);
    raw = await walk(baseline, ['--path', '/', '--requests', String(petstore.pages)]);
  } finally {
    await harness.stop(baseline);
  }
  const msPerPage = petstore.medianMs;
  const complete =
    petstore.pets === pets ? 'every pet once, ids ascending' : `walked ${petstore.pets} of ${pets} pets`;
  return {
    msPerPage,
    rows: [
      {
        scenario,
        server: 'raw',
        rps: (raw.pages / raw.ms) * 1000,
        p50Ms: raw.medianMs,
        p99Ms: raw.p99Ms,
        note: `${raw.pages} sequential GETs in ${Math.round(raw.ms)} ms`,
      },
      {
        scenario,
        server: 'petstore',
        rps: (petstore.pages / petstore.ms) * 1000,
        p50Ms: petstore.medianMs,
        p99Ms: petstore.p99Ms,
        ratio: raw.ms / petstore.ms,
        note: `${petstore.pages} pages in ${Math.round(petstore.ms)} ms (again: ${Math.round(again.ms)} ms); ${complete}`,
      },
    ],
  };
}

/**
 * Time to walk every page via Link at 10,000 pets and at --pets pets, one client on one connection.
 * Keyset paging makes the walk O(total): the time per page must not grow with the table.
 * req/s is pages per second, p50 and p99 are of the time per page, all of the first walk (read from
 * the database); the note gives the time of a second walk, which a read cache may answer.
 */
export async function pagingScenario(harness: Harness): Promise<Row[]> {
  const small = await walkAt(harness, 10_000);
  if (harness.options.pets === 10_000) return small.rows;
  const large = await walkAt(harness, harness.options.pets);
  const growth = large.msPerPage / small.msPerPage;
  return [
    ...small.rows,
    ...large.rows,
    {
      scenario: 'paging cost growth',
      server: `${harness.options.pets.toLocaleString('en-US')} vs 10k`,
      ratio: growth,
      target: 'O(total): page time ≤ 1.5× of 10k',
      met: growth <= 1.5,
      note: 'median time per page, large walk over small walk',
    },
  ];
}
