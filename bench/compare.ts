import { type Database, type Harness, type Measured, SERVER_CORE, type Target } from './harness.ts';
import type { LoadSpec } from './load.ts';
import type { Row } from './table.ts';

export type Spec = Omit<LoadSpec, 'origin' | 'connections' | 'durationSeconds'>;

/** A target from the issue: its wording, and the test of the petstore figures against it. */
export interface Goal {
  text: string;
  met(measured: Measured, ratioToRaw: number): boolean;
}

export function problems(measured: { non2xx: number; errors: number }): string | undefined {
  const found = [];
  if (measured.non2xx > 0) found.push(`${measured.non2xx} non-2xx`);
  if (measured.errors > 0) found.push(`${measured.errors} socket errors/timeouts`);
  return found.length > 0 ? found.join(', ') : undefined;
}

export function row(scenario: string, server: string, measured: Measured, extra: Partial<Row> = {}): Row {
  const issues = problems(measured);
  const note = [extra.note, issues].filter(Boolean).join('; ') || undefined;
  return {
    scenario,
    server,
    rps: measured.rps,
    p50Ms: measured.p50Ms,
    p99Ms: measured.p99Ms,
    rssMb: measured.rssMb,
    cpuMicros: measured.cpuMicrosPerRequest,
    ...extra,
    note,
  };
}

/** The run with the median req/s (of an odd count; the lower middle of an even one). */
export function medianRun(runs: Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Turns {
  /** Every round of the raw baseline, then of each server, in the order given. */
  raw: Measured[];
  servers: Measured[][];
  bodyBytes: number;
}

/**
 * Real servers (one per database) and the raw baseline (answering with the body and content type the
 * first real server sent for the same request), all pinned to core 0 and idle but for the one under
 * load. They take turns --rounds times, in a rotating order, so a burst of load from elsewhere on the
 * machine skews one round rather than one side.
 */
export async function takeTurns(
  harness: Harness,
  scenario: string,
  dbs: Database[],
  specFor: (db: Database) => Spec,
): Promise<Turns> {
  const label = scenario.replaceAll(/[^a-z0-9]+/gi, '-').replace(/-$/, '');
  const servers: Target[] = [];
  try {
    for (const [index, db] of dbs.entries()) {
      const suffix = dbs.length > 1 ? `-${index + 1}` : '';
      servers.push(
        await harness.startPetstore(db, { core: SERVER_CORE, label: `${label}-petstore${suffix}` }),
      );
    }
    const specs = dbs.map(specFor);
    const spec = specs[0]!;
    const response = await harness.probe(servers[0]!, spec);
    if (response.status >= 300) {
      throw new Error(`${spec.method} ${spec.path} answered ${response.status}: ${response.body.toString()}`);
    }
    const baseline = await harness.startRaw(response, SERVER_CORE, `${label}-raw`);
    const targets = [baseline, ...servers];
    const runs: Measured[][] = targets.map(() => []);
    try {
      for (let round = 0; round < harness.options.rounds; round += 1) {
        for (let turn = 0; turn < targets.length; turn += 1) {
          const index = (turn + round) % targets.length;
          runs[index]!.push(await harness.measure(targets[index]!, specs[Math.max(0, index - 1)]!));
        }
      }
    } finally {
      await harness.stop(baseline);
    }
    return { raw: runs[0]!, servers: runs.slice(1), bodyBytes: response.body.length };
  } finally {
    for (const server of servers) await harness.stop(server);
  }
}

export function roundsNote(harness: Harness): string {
  return harness.options.rounds > 1 ? `; median of ${harness.options.rounds} rounds` : '';
}

export function petstoreRow(scenario: string, petstore: Measured, raw: Measured, goal?: Goal): Row {
  const ratio = petstore.rps / raw.rps;
  return row(scenario, 'petstore', petstore, {
    ratio,
    target: goal?.text,
    met: goal?.met(petstore, ratio),
    note: `by CPU per request ${(raw.cpuMicrosPerRequest / petstore.cpuMicrosPerRequest).toFixed(2)}× raw`,
  });
}

/** One real server against the raw baseline; each reports its median round. */
export async function versusRaw(
  harness: Harness,
  scenario: string,
  db: Database,
  spec: Spec,
  goal?: Goal,
): Promise<{ rows: Row[]; petstore: Measured; raw: Measured }> {
  const turns = await takeTurns(harness, scenario, [db], () => spec);
  const petstore = medianRun(turns.servers[0]!);
  const raw = medianRun(turns.raw);
  return {
    petstore,
    raw,
    rows: [
      row(scenario, 'raw', raw, { note: `${turns.bodyBytes} B body${roundsNote(harness)}` }),
      petstoreRow(scenario, petstore, raw, goal),
    ],
  };
}
