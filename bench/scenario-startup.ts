import { type Harness, SERVER_CORE, type Target } from './harness.ts';
import { Servers } from './peers/servers.ts';
import { fetchOnce, treeCpuMs } from './processes.ts';
import type { Row } from './table.ts';

/** The target: the project started as bench:peers starts it, at most this share of the Fastify peer's time. */
const TARGET_RATIO = 0.8;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Starts {
  /** Spawn to the first 200, in milliseconds. */
  wallMs: number[];
  /** CPU time the process (with npm's, its children) ran until then, in milliseconds. */
  cpuMs: number[];
}

type Start = () => Promise<{ target: Target; stop(): Promise<void> }>;

/** One start: its wall time, its CPU time read right after its first 200 (it is idle then), stopped. */
async function timeStart(start: Start, into: Starts): Promise<void> {
  const { target, stop } = await start();
  into.cpuMs.push(treeCpuMs(target.started.pid));
  into.wallMs.push(target.startupMs);
  await stop();
}

const summary = (starts: Starts) =>
  `median and slowest of ${starts.wallMs.length}; CPU to the first 200 ${median(starts.cpuMs).toFixed(0)} ms`;

/**
 * Spawn to the first 200 of GET /v1/pets?limit=20 (authenticated, so the key lookup, the rate limiter
 * and the database are all up), polled every 5 ms: the project as bench:peers starts it (node with
 * `npm start`'s flags, "node direct") and as `npm start` starts it, the Fastify peer (bench/peers) and
 * the raw baseline; one start of each per round, --startup-runs rounds, each pinned to the server core.
 * With each, the CPU time it ran until then (/proc schedstat): a busy machine stretches wall times far
 * more than it does CPU times. p50 is the median start-up and p99 the slowest.
 */
export async function startupScenario(harness: Harness): Promise<Row[]> {
  const runs = harness.options.startupRuns;
  const db = await harness.sqlite(harness.options.pets);
  const peers = new Servers(harness, harness.options.pets);
  const probe = await harness.startPetstore(db, {
    core: SERVER_CORE,
    label: 'startup-probe',
    profile: false,
  });
  const response = await fetchOnce(`${probe.origin}/v1/pets?limit=20`, { headers: harness.auth(db) });
  await harness.stop(probe);
  const petstore =
    (npmStart: boolean, label: string): Start =>
    async () => {
      const target = await harness.startPetstore(await harness.sqlite(harness.options.pets), {
        core: SERVER_CORE,
        label,
        profile: false,
        npmStart,
      });
      return { target, stop: () => harness.stop(target) };
    };
  const peer =
    (name: 'fastify' | 'raw', label: string): Start =>
    async () => {
      const server = name === 'raw' ? await peers.startRaw(response, label) : await peers.start(name, db);
      return { target: server.target, stop: () => peers.stop(server) };
    };
  const sides: [string, Starts, (round: number) => Start][] = [
    ['petstore (node direct)', { wallMs: [], cpuMs: [] }, (round) => petstore(false, `startup-${round}`)],
    ['petstore (npm start)', { wallMs: [], cpuMs: [] }, (round) => petstore(true, `startup-npm-${round}`)],
    ['Fastify peer', { wallMs: [], cpuMs: [] }, (round) => peer('fastify', `startup-fastify-${round}`)],
    ['raw', { wallMs: [], cpuMs: [] }, (round) => peer('raw', `startup-raw-${round}`)],
  ];
  try {
    for (let round = 0; round < runs; round += 1) {
      for (const [, starts, start] of sides) await timeStart(start(round), starts);
    }
  } finally {
    await peers.stopAll();
  }
  const fastify = median(sides[2]![1].wallMs);
  return sides.map(([server, starts]): Row => {
    const typical = median(starts.wallMs);
    const row: Row = {
      scenario: 'startup (spawn → first 200)',
      server,
      p50Ms: typical,
      p99Ms: Math.max(...starts.wallMs),
      note: summary(starts),
    };
    if (server === 'Fastify peer' || server === 'raw') return row;
    const ratio = typical / fastify;
    const ofPeer = `${ratio.toFixed(2)}× the Fastify peer (CPU ${(median(starts.cpuMs) / median(sides[2]![1].cpuMs)).toFixed(2)}×)`;
    if (server === 'petstore (npm start)') return { ...row, note: `${row.note}; ${ofPeer}` };
    return {
      ...row,
      target: `≤ ${TARGET_RATIO}× the Fastify peer`,
      met: ratio <= TARGET_RATIO,
      note: `${row.note}; ${ofPeer}`,
    };
  });
}
