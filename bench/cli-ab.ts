import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './compare.ts';

const HELP = `node bench/cli-ab.ts --a DIR [--b DIR] [--runs N] -- <petstore arguments>

Times whole \`petstore <arguments>\` processes of the checkout at --a (and --b), started in turns
(A B A B …, after one warm-up each), with the environment of this process (DATABASE_URL…): wall time
from spawn to exit, CPU time (user + system, from bash's \`times\`) and peak RSS (/usr/bin/time %M), each
as min, median and max, and with --b the ratio A/B of each pair's CPU. Standard output is discarded.
Each checkout needs its build (npm run build), or its packages are imported from node_modules.

  --a DIR, --b DIR   repository roots (packages/cli/bin/petstore.js under each)
  --runs N           runs of each side (default 20)`;

interface Run {
  wallMs: number;
  cpuMs: number;
  peakMb: number;
}

/** One process under bash (`times`: the children's CPU to the millisecond) and /usr/bin/time (%M). */
function timeOnce(root: string, args: string[], scratch: string): Run {
  const cli = join(root, 'packages/cli/bin/petstore.js');
  const peakFile = join(scratch, 'peak');
  const script = '/usr/bin/time -f %M -o "$0" "$@" >/dev/null 2>&1; times';
  const started = performance.now();
  const result = spawnSync('bash', ['-c', script, peakFile, process.execPath, cli, ...args], {
    encoding: 'utf8',
  });
  const wallMs = performance.now() - started;
  // `times` prints the shell's user and system time, then its children's: 0m0.052s 0m0.012s.
  const children = result.stdout.trim().split('\n').at(-1)!;
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (seconds.length !== 2) throw new Error(`unexpected output of times: ${result.stdout}`);
  const peakKb = Number(readFileSync(peakFile, 'utf8').trim().split('\n').at(-1));
  return { wallMs, cpuMs: (seconds[0]! + seconds[1]!) * 1000, peakMb: peakKb / 1024 };
}

const spread = (values: number[], digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (value: number) => value.toFixed(digits);
  return `${f(median(sorted))} (${f(sorted[0]!)}–${f(sorted.at(-1)!)})`;
};

const { values, positionals } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    runs: { type: 'string', default: '20' },
    help: { type: 'boolean' },
  },
  allowPositionals: true,
});
if (values.help || !values.a) {
  console.log(HELP);
  process.exit(values.help ? 0 : 2);
}
const sides = [values.a, ...(values.b ? [values.b] : [])].map((root) => resolve(root));
const runs = Number(values.runs);
const scratch = mkdtempSync(join(tmpdir(), 'cli-ab-'));
try {
  const load = loadavg()[0]!.toFixed(1);
  for (const root of sides) timeOnce(root, positionals, scratch);
  const results = sides.map((): Run[] => []);
  for (let run = 0; run < runs; run++) {
    sides.forEach((root, side) => results[side]!.push(timeOnce(root, positionals, scratch)));
  }
  console.log(
    `petstore ${positionals.join(' ')}: ${runs} runs each, load average ${load} → ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log('| side | wall ms | CPU ms | peak MB |');
  console.log('|---|---|---|---|');
  results.forEach((side, index) => {
    const name = `${'AB'[index]} ${sides[index]}`;
    const of = (pick: (run: Run) => number, digits?: number) => spread(side.map(pick), digits);
    console.log(`| ${name} | ${of((r) => r.wallMs)} | ${of((r) => r.cpuMs)} | ${of((r) => r.peakMb, 1)} |`);
  });
  if (results.length === 2) {
    const ratios = results[0]!.map((run, index) => run.cpuMs / results[1]![index]!.cpuMs);
    console.log(`CPU A/B, pair by pair: ${spread(ratios, 2)}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
