import type { LoadResult } from '../load.ts';
import { LABELS, SERVERS, type ServerName } from './servers.ts';

export const SCENARIOS = ['list', 'get', 'create'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** Everything measured in one run: every round of every scenario, start-ups and peak RSS per server. */
export interface Results {
  runs: Record<Scenario, Record<ServerName, LoadResult[]>>;
  startupMs: Record<ServerName, number[]>;
  peakRssMb: Record<ServerName, number>;
}

export function emptyResults(): Results {
  const perServer = <T>(make: () => T) =>
    Object.fromEntries(SERVERS.map((name) => [name, make()])) as Record<ServerName, T>;
  return {
    runs: { list: perServer(() => []), get: perServer(() => []), create: perServer(() => []) },
    startupMs: perServer(() => []),
    peakRssMb: perServer(() => 0),
  };
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const whole = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
const tenths = (value: number) => (Number.isFinite(value) ? value.toFixed(value >= 100 ? 0 : 1) : '–');

/** `median (min–max)`, or just the value for a single round. */
function spread(values: number[], format: (value: number) => string): string {
  if (values.length <= 1) return format(values[0] ?? Number.NaN);
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

const rps = (runs: LoadResult[]) => runs.map((run) => run.rps);
const p99 = (runs: LoadResult[]) => runs.map((run) => run.p99Ms);

function table(head: string[], rows: string[][]): string {
  const align = head.map((_, column) => (column === 0 ? '---' : '---:'));
  return [head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The results as Markdown: figures per server, ratios to raw, and the project over each peer. */
export function report(results: Results): string {
  const { runs } = results;
  const head = ['', ...SERVERS.map((name) => LABELS[name])];
  const figures: string[][] = [];
  for (const scenario of SCENARIOS) {
    const label = scenario === 'create' ? 'create req/s (durable)' : `${scenario} req/s`;
    figures.push([label, ...SERVERS.map((name) => spread(rps(runs[scenario][name]), whole))]);
  }
  for (const scenario of SCENARIOS)
    figures.push([`${scenario} p99 ms`, ...SERVERS.map((name) => spread(p99(runs[scenario][name]), tenths))]);
  figures.push([
    'start-up to first 200, ms',
    ...SERVERS.map((name) => spread(results.startupMs[name], whole)),
  ]);
  figures.push(['peak RSS after all loads, MB', ...SERVERS.map((name) => whole(results.peakRssMb[name]))]);

  const ratio = (scenario: Scenario, name: ServerName, to: ServerName) =>
    median(rps(runs[scenario][name])) / median(rps(runs[scenario][to]));
  const ratios = SCENARIOS.map((scenario) => [
    `${scenario} × raw`,
    ...SERVERS.map((name) => `${ratio(scenario, name, 'raw').toFixed(2)}×`),
  ]);

  const peers = SERVERS.filter((name) => name !== 'raw' && name !== 'petstore');
  const versus = [
    ...SCENARIOS.map((scenario) => [
      `${scenario} req/s`,
      ...peers.map((peer) => `${ratio(scenario, 'petstore', peer).toFixed(2)}×`),
    ]),
    ...SCENARIOS.map((scenario) => [
      `${scenario} p99`,
      ...peers.map(
        (peer) => `${(median(p99(runs[scenario].petstore)) / median(p99(runs[scenario][peer]))).toFixed(2)}×`,
      ),
    ]),
  ];

  const problems: string[] = [];
  for (const scenario of SCENARIOS) {
    for (const name of SERVERS) {
      const bad = runs[scenario][name].reduce((sum, run) => sum + run.non2xx + run.errors, 0);
      if (bad > 0) problems.push(`${LABELS[name]} ${scenario}: ${bad} non-2xx answers or socket errors`);
    }
  }

  return [
    table(head, figures),
    '',
    'Ratios of the medians to raw `node:http` (req/s):',
    '',
    table(head, ratios),
    '',
    'The project over each peer (req/s: above 1 is faster; p99: below 1 is a shorter tail):',
    '',
    table(['', ...peers.map((name) => LABELS[name])], versus),
    ...(problems.length > 0 ? ['', ...problems.map((line) => `- ${line}`)] : []),
  ].join('\n');
}
